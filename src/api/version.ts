/**
 * Name and version the client announces in its User-Agent.
 * src/api may not import anything outside itself (lint), so the version is kept here;
 * test/unit/api/version.test.ts fails when it drifts from package.json.
 */
export const CLIENT_NAME = 'portal-vscode';
export const CLIENT_VERSION = '0.1.0';
export const DEFAULT_USER_AGENT = `${CLIENT_NAME}/${CLIENT_VERSION}`;
