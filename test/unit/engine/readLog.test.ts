import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { callLogFolder, listToolCalls, ToolCallLog } from '../../../src/engine/readLog';

void describe('chat tool call journal', () => {
  void it('keeps each call in a 0600 file in a 0700 folder, and lists them oldest first', async () => {
    const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'chat-log-'));
    try {
      const log = new ToolCallLog(storage);
      log.record({ at: 1, tool: 'portal_memberAccess', input: { username: 'ann' }, outcome: 'answered' });
      log.record({
        at: 2,
        tool: 'portal_proposeMemberChanges',
        input: { rows: [] },
        portal: 'https://p',
        organisation: 'Org',
        outcome: 'proposed',
      });
      fs.appendFileSync(path.join(callLogFolder(storage), 'tool-calls.jsonl'), '{"at":3,"to');
      const calls = await listToolCalls(storage);
      assert.deepEqual(
        calls.map((c) => [c.at, c.tool, c.outcome]),
        [
          [1, 'portal_memberAccess', 'answered'],
          [2, 'portal_proposeMemberChanges', 'proposed'],
        ],
      );
      if (process.platform !== 'win32') {
        assert.equal(fs.statSync(callLogFolder(storage)).mode & 0o777, 0o700);
        assert.equal(fs.statSync(path.join(callLogFolder(storage), 'tool-calls.jsonl')).mode & 0o777, 0o600);
      }
      assert.deepEqual(await listToolCalls(path.join(storage, 'none')), []);
    } finally {
      fs.rmSync(storage, { recursive: true, force: true });
    }
  });
});
