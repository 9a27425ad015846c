// The last suite of the main phase: every command package.json contributes must have run, to the end, in some test
// of this phase. "Registered" is not enough: a command nobody ran may do nothing, or the wrong thing.
import assert from 'node:assert/strict';
import { commandRuns } from '../../support/commandAudit';
import { contributedCommands, readManifest, runContext } from '../../support/manifest';
import { TEST_ENV } from '../../protocol';

const audit = describe('Command audit', function () {
  it('every contributed command ran to the end in a test of the main phase', function () {
    const grep = process.env[TEST_ENV.grep] || runContext()?.grep;
    // Under --grep most suites did not run, so most commands could not have.
    if (grep) this.skip();
    const { ran, tried } = commandRuns();
    const missing = contributedCommands(readManifest()).filter((c) => !ran.has(c));
    const lines = missing.map((c) => (tried.has(c) ? `  ${c} (run, but never to the end: ${tried.get(c)})` : `  ${c}`));
    assert.equal(
      missing.length,
      0,
      [
        `${missing.length} contributed command(s) ran in no test of test/vscode/suites/main:`,
        ...lines,
        'Add a test that runs each through vscode.commands.executeCommand (on a row of ours, or answering its questions',
        'through withUi) and checks what it did. A run counts when no question was dismissed and no error was shown.',
      ].join('\n'),
    );
  });
});

// Files load in name order, but the audit must come after every suite however the others are named.
before(function () {
  const root = audit.parent;
  if (!root) return;
  root.suites.splice(root.suites.indexOf(audit), 1);
  root.suites.push(audit);
});
