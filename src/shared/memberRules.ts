/**
 * What the portal can hold, as the members file is checked against it: the limits the portal enforces on member
 * fields (spec 4.3 and the emulator's validation, which follows what the live service is observed to reject).
 */

/** 2-64 letters, digits, dots, dashes, underscores or @, starting with a letter or digit. */
export const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{1,63}$/;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MAX_NAME = 200;
export const MAX_EMAIL = 254;
export const MAX_JOB_TITLE = 500;
export const MAX_TAG = 50;
export const MAX_TAGS = 100;
