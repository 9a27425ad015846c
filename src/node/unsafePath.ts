/** Why the door to the disk (src/node/disk.ts) refused a path; one error for every file helper under src/node/. */
export class UnsafePathError extends Error {
  override readonly name = 'UnsafePathError';
  constructor(
    readonly reason: 'link' | 'outside' | 'not-a-file',
    readonly file: string,
  ) {
    super(
      reason === 'link'
        ? `${file} is a symbolic link; nothing was written through it`
        : reason === 'outside'
          ? `${file} is outside the folder it must stay in`
          : `${file} is not a regular file`,
    );
  }
}

/** A link met by an open with O_NOFOLLOW: Linux answers ELOOP, the BSDs and macOS EMLINK or EFTYPE. */
export function isLinkRefusal(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ELOOP' || code === 'EMLINK' || code === 'EFTYPE';
}

/** The error to throw for an open that failed on `file`: a link refused becomes UnsafePathError('link'). */
export function asUnsafeLink(file: string, error: unknown): unknown {
  return isLinkRefusal(error) ? new UnsafePathError('link', file) : error;
}
