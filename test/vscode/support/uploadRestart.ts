// What the two halves of "an upload interrupted by a restart" share: the files, where they are, where they go.
import * as os from 'node:os';
import * as path from 'node:path';

/** Files of the upload; the restart half checks each is on the portal exactly once. */
export const RESTART_FILES = 30;
/** The local folder uploaded (it outlives the extension host: the restart half's resume reads it). */
export const RESTART_FOLDER = path.join(os.tmpdir(), 'portal-upload-restart', 'restart-upload');
export const RESTART_TARGET = { accountId: 1, groupId: 104 } as const;
export const restartFileName = (i: number): string => `u-${String(i).padStart(2, '0')}.txt`;
