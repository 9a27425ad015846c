// Two VS Code windows share one SecretStorage. SecretStorage has no compare-and-delete, so removing refused
// credentials is a read, then a write: these tests put another window's write between the two.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type * as vscode from 'vscode';
import { CredentialStore, type StoredCredentials } from '../../../src/auth/credentialStore';

/** SecretStorage as VS Code keeps it for every window: one map, a change event per write. */
class SharedSecrets {
  private readonly values = new Map<string, string>();
  private readonly events = new EventEmitter();
  /** Runs once, right after the next read has been answered: another window acting in that moment. */
  afterNextGet: (() => void) | undefined;

  raw(key: string): string | undefined {
    return this.values.get(key);
  }

  /** One window's view of the storage. */
  window(): vscode.SecretStorage {
    return {
      get: async (key: string) => {
        const value = this.values.get(key);
        const hook = this.afterNextGet;
        this.afterNextGet = undefined;
        hook?.();
        return value;
      },
      store: async (key: string, value: string) => {
        this.values.set(key, value);
        this.events.emit('change', { key });
      },
      delete: async (key: string) => {
        this.values.delete(key);
        this.events.emit('change', { key });
      },
      onDidChange: (listener: (e: vscode.SecretStorageChangeEvent) => unknown) => {
        this.events.on('change', listener);
        return { dispose: () => this.events.off('change', listener) };
      },
    } as vscode.SecretStorage;
  }
}

const ISSUED = { origin: 'https://portal.example', service: 'portal' };
const OLD: StoredCredentials = {
  clientId: 'portal-0001',
  clientSecret: 'old-secret-3f9a',
  username: 'demo',
  applicationCreatedHere: true,
  issuedFor: ISSUED,
};
const NEW: StoredCredentials = { ...OLD, clientSecret: 'new-secret-77c1' };
const ID = 'portal-example';

void describe('CredentialStore.deleteIfStill', () => {
  void test('removes the refused credentials while storage still holds them, and keeps no secret behind', async () => {
    const shared = new SharedSecrets();
    const store = new CredentialStore(shared.window());
    await store.set(ID, OLD);
    assert.equal(await store.deleteIfStill(ID, OLD), true);
    assert.equal(await store.get(ID), undefined);
    assert.ok(!(shared.raw(`portal.credentials.${ID}`) ?? '').includes(OLD.clientSecret));
  });

  void test('leaves newer credentials another window stored before the read', async () => {
    const store = new CredentialStore(new SharedSecrets().window());
    await store.set(ID, NEW);
    assert.equal(await store.deleteIfStill(ID, OLD), false);
    assert.deepEqual(await store.get(ID), NEW);
  });

  void test('another window storing new credentials between the read and the write gets them back', async () => {
    const shared = new SharedSecrets();
    const failing = new CredentialStore(shared.window());
    const rotating = new CredentialStore(shared.window());
    await failing.set(ID, OLD);
    // The other window rotates the secret just after this one read the old credentials.
    shared.afterNextGet = () => void rotating.set(ID, NEW);
    assert.equal(await failing.deleteIfStill(ID, OLD), true);
    assert.equal(await rotating.get(ID), undefined, 'the race: the write landed on the new credentials');
    // The rotating window sees its credentials gone (a change event) and what replaced them.
    assert.equal(await rotating.reinstate(ID, NEW), true);
    assert.deepEqual(await failing.get(ID), NEW);
  });

  void test("a window holding the refused credentials themselves, or after a user's sign-out, stays signed out", async () => {
    const shared = new SharedSecrets();
    const one = new CredentialStore(shared.window());
    const two = new CredentialStore(shared.window());
    await one.set(ID, OLD);
    assert.equal(await one.deleteIfStill(ID, OLD), true);
    assert.equal(await two.reinstate(ID, OLD), false);
    assert.equal(await two.get(ID), undefined);
    await one.set(ID, NEW);
    await one.delete(ID);
    assert.equal(await two.reinstate(ID, NEW), false, 'a sign-out is never undone');
    assert.equal(await two.get(ID), undefined);
  });
});
