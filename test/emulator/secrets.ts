// Password hashing and opaque token strings.
import { createHash, randomBytes } from 'node:crypto';

/** Salted with the user id: cheap enough for 20,000 seeded users, and no plain passwords in data files. */
export function hashPassword(userId: number, password: string): string {
  return createHash('sha256').update(`${userId}:${password}`).digest('hex');
}

export function checkPassword(userId: number, hash: string | null, password: string): boolean {
  return hash !== null && hashPassword(userId, password) === hash;
}

export function randomToken(): string {
  return randomBytes(24).toString('base64url');
}
