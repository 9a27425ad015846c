import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { callLogFolder, LINE_MAX_BYTES, listToolCalls, LOG_MAX_BYTES, ToolCallLog } from '../../../src/engine/readLog';
import { tempDir } from '../../support/tempDir';

void describe('chat tool call journal', () => {
  void it('keeps each call in a 0600 file in a 0700 folder, and lists them oldest first', async () => {
    const storage = tempDir('chat-log-');
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

/** A journaled call as an older version wrote it: one line, `pad` characters of input. */
const oldLine = (at: number, pad: number): string =>
  `${JSON.stringify({ at, tool: 'portal_proposeMemberChanges', input: { rows: 'x'.repeat(pad) }, outcome: 'proposed' })}\n`;

void describe('chat tool call journal: bounded by bytes', () => {
  void it('a log grown large is under its byte bound after one more call, its newest calls kept whole', async () => {
    const storage = tempDir('chat-log-');
    try {
      const file = path.join(callLogFolder(storage), 'tool-calls.jsonl');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      // 2,500 calls of 5 KB each, as an older version let the log grow: 12 MB.
      const fd = fs.openSync(file, 'w');
      for (let i = 0; i < 2500; i++) fs.writeSync(fd, oldLine(i, 5000));
      fs.closeSync(fd);
      assert.ok(fs.statSync(file).size > 12_000_000);
      new ToolCallLog(storage).record({
        at: 9999,
        tool: 'portal_memberAccess',
        input: { username: 'ann' },
        outcome: 'answered',
      });
      const size = fs.statSync(file).size;
      assert.ok(size <= LOG_MAX_BYTES, `${size} bytes after one more call`);
      const text = fs.readFileSync(file, 'utf8');
      const lines = text.split('\n').filter(Boolean);
      assert.ok(text.endsWith('\n'));
      for (const line of lines) assert.doesNotThrow(() => JSON.parse(line) as unknown, 'every line kept is whole');
      const calls = await listToolCalls(storage);
      assert.equal(calls.at(-1)?.at, 9999, 'the newest call is kept');
      assert.equal(calls.at(-2)?.at, 2499, 'the calls before it are the newest ones');
      assert.ok(calls.length > 10, 'the newest calls, not only the last');
    } finally {
      fs.rmSync(storage, { recursive: true, force: true });
    }
  });

  void it('cutting reads only the tail of the log: a log too large to read whole is cut all the same', async (t) => {
    if (process.platform === 'win32') return t.skip('needs a sparse file');
    const storage = tempDir('chat-log-');
    try {
      const file = path.join(callLogFolder(storage), 'tool-calls.jsonl');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      // 600 MB, sparse (no disk used): more characters than a string can hold, so a cut that read the whole file
      // would throw. Its last lines are calls.
      const head = 600 * 1024 * 1024;
      fs.writeFileSync(file, '');
      fs.truncateSync(file, head);
      fs.appendFileSync(file, `\n${oldLine(1, 100)}${oldLine(2, 100)}`);
      new ToolCallLog(storage).record({
        at: 3,
        tool: 'portal_memberAccess',
        input: { username: 'ann' },
        outcome: 'answered',
      });
      assert.ok(fs.statSync(file).size <= LOG_MAX_BYTES);
      assert.deepEqual(
        (await listToolCalls(storage)).map((c) => c.at),
        [1, 2, 3],
      );
    } finally {
      fs.rmSync(storage, { recursive: true, force: true });
    }
  });

  void it('a call with a huge input is one bounded line that still says which tool, when and how it ended', async () => {
    const storage = tempDir('chat-log-');
    try {
      const rows = Array.from({ length: 1000 }, (_, i) => ({ username: `user${i}`, name: 'n'.repeat(500) }));
      const log = new ToolCallLog(storage);
      log.record({
        at: 5,
        tool: 'portal_proposeMemberChanges',
        input: { organisation: 'acme', rows },
        outcome: 'proposed',
      });
      const file = path.join(callLogFolder(storage), 'tool-calls.jsonl');
      const text = fs.readFileSync(file, 'utf8');
      assert.equal(text.split('\n').filter(Boolean).length, 1);
      assert.ok(Buffer.byteLength(text) <= LINE_MAX_BYTES, `${Buffer.byteLength(text)} bytes for one call`);
      const [call] = await listToolCalls(storage);
      assert.equal(call?.tool, 'portal_proposeMemberChanges');
      assert.equal(call?.outcome, 'proposed');
      assert.equal(call?.input.organisation, 'acme');
      assert.equal(call?.input.cut, true, 'the line says its input was cut');
      assert.match(JSON.stringify(call?.input.rows), /user0/, 'the first rows are outlined');
    } finally {
      fs.rmSync(storage, { recursive: true, force: true });
    }
  });
});
