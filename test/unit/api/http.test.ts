// HTTP helpers: error bodies that are not JSON (what a portal's HTML error page says, decoded as text and nothing
// more), query strings, Retry-After and Content-Disposition.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildQuery, parseContentDisposition, parseRetryAfter, plainServerText } from '../../../src/api/http';

const HTML = { 'content-type': 'text/html; charset=utf-8' };

void describe('plainServerText', () => {
  void test("an HTML page's title: the entities it knows are decoded, the others stay as written", () => {
    assert.equal(
      plainServerText(
        '<html><head><title>502 &lt;Bad&gt; &amp; &quot;Gateway&quot; &#65;&#x42;</title></head></html>',
        HTML,
      ),
      '502 <Bad> & "Gateway" AB',
    );
    assert.equal(plainServerText('<title>&bogus; &#0;</title>', HTML), '&bogus; &#0;');
  });

  void test('entity names of Object.prototype (&constructor;, &__proto__;, &toString;) are not looked up through it', () => {
    const title = '500 &constructor; &__proto__; &toString; &hasOwnProperty; &valueOf;';
    assert.equal(plainServerText(`<title>${title}</title>`, HTML), title);
  });
});

void test('query strings, Retry-After, Content-Disposition', () => {
  assert.equal(
    buildQuery({ a: 1, b: true, c: undefined, d: null, summary: '', t: ['x', 'y z'] }),
    '?a=1&b=true&summary&t=x%2Cy%20z',
  );
  assert.equal(buildQuery({}), '');
  assert.equal(parseRetryAfter('3'), 3000);
  assert.equal(parseRetryAfter('0'), 0);
  assert.equal(parseRetryAfter(new Date(Date.now() + 5000).toUTCString(), Date.now()) !== undefined, true);
  assert.equal(parseRetryAfter('soon'), undefined);
  assert.equal(parseContentDisposition('attachment; filename="a \\"b\\".txt"'), 'a "b".txt');
  assert.equal(parseContentDisposition("attachment; filename=x.txt; filename*=UTF-8''%C3%A9t%C3%A9.txt"), 'été.txt');
  assert.equal(parseContentDisposition('attachment; filename=plain.pdf'), 'plain.pdf');
  assert.equal(parseContentDisposition(undefined), undefined);
});
