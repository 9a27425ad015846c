// Error bodies that are not JSON: what a portal's HTML error page says, decoded as text and nothing more.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { plainServerText } from '../../../src/api/http';

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
