import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redact, SecretRegistry, MASK } from '../../../src/api';

void test('query and form parameters holding secrets are masked', () => {
  const s = redact(
    '/oauth/token?grant_type=password&username=demo&password=hunter22&code=123456&client_secret=s3cr3t&refresh_token=r.t&access_token=a.t',
  );
  assert.equal(
    s,
    `/oauth/token?grant_type=password&username=demo&password=${MASK}&code=${MASK}&client_secret=${MASK}&refresh_token=${MASK}&access_token=${MASK}`,
  );
});

void test('names that merely end like a secret are left alone', () => {
  assert.equal(redact('?error_code=7&barcode=9'), '?error_code=7&barcode=9');
});

void test('JSON fields and Authorization values are masked', () => {
  const s = redact(
    '{"password":"p\\"w","clientSecret":"abc","code":123456,"name":"x"} Authorization: Bearer eyJ.abc-123',
  );
  assert.equal(
    s,
    `{"password":"${MASK}","clientSecret":"${MASK}","code":"${MASK}","name":"x"} Authorization: Bearer ${MASK}`,
  );
});

void test('registered values are masked wherever they appear, also URL-encoded', () => {
  const reg = new SecretRegistry();
  reg.pin('p@ss word!');
  reg.add('tok-1234');
  assert.equal(reg.redact('x p@ss word! y p%40ss%20word! z tok-1234'), `x ${MASK} y ${MASK} z ${MASK}`);
  reg.unpin('p@ss word!');
  assert.equal(reg.redact('p@ss word!'), 'p@ss word!');
});

void test('rotating secrets are bounded', () => {
  const reg = new SecretRegistry(2);
  reg.add('aaaa1');
  reg.add('aaaa2');
  reg.add('aaaa3');
  assert.deepEqual([...reg.values()], ['aaaa2', 'aaaa3']);
});

void test('secret-named fields of request bodies are found, nested too', async () => {
  const { secretValuesIn } = await import('../../../src/api');
  assert.deepEqual(
    secretValuesIn({ user: { username: 'u', password: 'p1' }, list: [{ clientSecret: 's1' }], code: 7 }),
    ['p1', 's1'],
  );
  assert.deepEqual(secretValuesIn('plain'), []);
});
