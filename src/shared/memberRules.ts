/**
 * What the portal can hold, as the members file, the forms and the bulk commands check it: the limits the portal
 * enforces on member fields. The spec states none ("Fieldlength and value-size limits: not shown"); these are the
 * emulator's validation, which follows what the live service is observed to reject. One name per rule.
 */

/** 2-64 letters, digits, dots, dashes, underscores or @, starting with a letter or digit. */
export const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{1,63}$/;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MAX_NAME = 200;
export const MAX_EMAIL = 254;
export const MAX_JOB_TITLE = 500;
/** Characters in one tag. */
export const MAX_TAG_LENGTH = 50;
/** Tags one member carries. */
export const MAX_TAGS_PER_MEMBER = 100;
