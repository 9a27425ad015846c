// Started by proxy.test.ts in a process of its own, so that NODE_EXTRA_CA_CERTS (read by Node at start) is the
// test's: signs in to the portal through the proxy, as the extension does, and prints what happened.
import { PortalClient, PortalError, resolveProxy } from '../../../src/api';

async function main(): Promise<void> {
  const [portal = '', proxy = ''] = process.argv.slice(2);
  const client = new PortalClient({
    baseUrl: portal,
    proxy: resolveProxy({ baseUrl: portal, httpProxy: proxy, env: {} }),
    retry: { attempts: 1 },
  });
  try {
    await client.signIn({ kind: 'password', username: 'demo', password: 'demo' });
    console.log('signed-in');
  } catch (e) {
    console.log(e instanceof PortalError ? `${e.kind}: ${e.message}` : String(e));
  } finally {
    client.close();
  }
}

void main();
