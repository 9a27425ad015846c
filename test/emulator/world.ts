// Everything a route handler may touch. Rebuilt on reset, so handlers never keep references across requests.
import type { TokenStore } from './auth';
import type { Blobs } from './blobs';
import type { Uploads } from './uploads';
import type { Shapes } from './serialize-v3';
import type { Store } from './store';
import type { Profile } from './types';

export interface World extends Shapes {
  store: Store;
  tokens: TokenStore;
  service: string;
  /** The static client id of the password grant: `<service>-mobile`. */
  mobileClientId: string;
  profile: Profile;
  /** See EmulatorOptions.groupChangesKeepLastModified. */
  groupChangesKeepLastModified?: boolean;
  /** Uploaded bytes on disk (kept across resets; removed on stop unless a data file keeps them). */
  blobs: Blobs;
  /** Uploads in progress and v3 temp files: gone on reset. */
  uploads: Uploads;
}
