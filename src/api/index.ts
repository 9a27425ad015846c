/** Public surface of the API layer. Plain TypeScript on undici; no VS Code. */
export * from './client';
export * from './errors';
export * from './redact';
export * from './permissions';
export * from './paging';
export * from './version';
export { Scheduler, DEFAULT_BUDGET, DEFAULT_MAX_CONCURRENT, type RequestBudget, type Ticket } from './scheduler';
export { isLoopbackHost, parseBaseUrl, type LookupFunction } from './url';
export { resolveProxy, type ProxyOptions, type ProxyInput } from './proxy';
export { retryPolicy, firstTry, type Outcome, type RetryLimits, type RetryState, type Step } from './retryPolicy';
export { buildQuery, parseRetryAfter, parseContentDisposition } from './http';
export { jsonOrUndefined, ownValue } from './models/read';
export { unlessAborted } from './abort';
export type { Credentials, TokenSet, TokenStore, TokenResponse } from './grants';
// The code of a 'signed-out' error that means "never signed in", as opposed to signed out by the portal.
export { NOT_SIGNED_IN } from './grants';
export type { V3Api, MembersQuery, MemberOrder, TagSummaryQuery, TagMembersQuery, AccountUpdate } from './endpoints/v3';
export type { V2Api } from './endpoints/v2';
export * from './models/user';
export * from './models/account';
export * from './models/application';
export * from './models/member';
export * from './models/v2';
export * from './models/file';
export {
  CHUNK_BYTES,
  refusesUploads,
  uploadNameProblem,
  type UploadsApi,
  type UploadSource,
  type UploadTarget,
  type UploadOptions,
} from './endpoints/uploads';
export * from './models/guests';
export { readGuestsAndInvitations, type GuestsAndInvitations } from './guestsAndInvitations';
export {
  MAX_AUDIT_PAGES,
  MAX_LISTED,
  notOfferedReason,
  type AuditEventName,
  type ListOptions,
  type NotOfferedReason,
  type ObservedApi,
  type Offered,
} from './endpoints/observed';
