/**
 * This checkout's test results (set by the runner), where a suite keeps what must outlive the extension host: two
 * test runs on one machine (two clones side by side) never share it, as they would a fixed name in the system's
 * temporary folder.
 */
export const RESULTS_DIR_ENV = 'PORTAL_TEST_RESULTS_DIR';
