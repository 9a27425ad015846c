// An emulator with the demo seed, signed in as the demo super administrator through the extension, plus a
// token of the same user for direct reads: the common start of the suites that work on the demo portal.
import assert from 'node:assert/strict';
import { PROFILES, startEmulator, type Emulator, type EmulatorOptions, type Profile } from '../../emulator';
import { portalIdOf } from '../../../src/auth/portalEntry';
import { portalApi, signInForTest } from './extension';
import { passwordToken } from './portalHttp';

export interface DemoPortal {
  emu: Emulator;
  portalId: string;
  /** A token of the demo user for direct reads (not the extension's). */
  token: string;
}

/** Seed and profile of the portal a suite starts (default: the demo seed, default profile). */
export type PortalKind = Partial<Pick<EmulatorOptions, 'seed' | 'profile' | 'missingReads' | 'large'>>;

/**
 * The profiles a suite runs against, each as its own describe: `for (const profile of PROFILES) describe(`… (${profile})`,
 * …)` with startDemoPortal({ profile }). The default profile takes the liberties the spec leaves open; `literal`
 * keeps to its letter (plain arrays unpaged, no single application or file record read, bare error bodies).
 */
export { PROFILES, type Profile };

/** True for a portal that keeps to the letter of the spec: a test asserts the literal behaviour there. */
export const isLiteral = (profile: Profile | undefined): boolean => profile === 'literal';

export async function startDemoPortal(kind: PortalKind = {}): Promise<DemoPortal> {
  const emu = await startEmulator({ port: 0, seed: 'demo', quiet: true, ...kind });
  const portalId = portalIdOf(emu.url, 'portal');
  try {
    const script = await signInForTest({ baseUrl: emu.url, username: 'demo', password: 'demo' });
    assert.deepEqual(script.failures, []);
    const token = await passwordToken(emu.url, 'demo', 'demo');
    return { emu, portalId, token };
  } catch (err) {
    // The caller gets no handle to clean up with, so do it here: no emulator outlives a failed start.
    await stopDemoPortal({ emu, portalId });
    throw err;
  }
}

/**
 * Removes the portal from the registry if it is still there, then stops the emulator. Takes the parts a
 * suite kept (it may not keep the token), and nothing when its start failed.
 */
export async function stopDemoPortal(p: { emu?: Emulator; portalId?: string }): Promise<void> {
  const api = await portalApi();
  if (p.portalId && api.registry.get(p.portalId)) await api.registry.remove(p.portalId);
  await p.emu?.stop();
}
