/**
 * What the site's server runs to sign a logged-in user's id (docs/widget.md "Verified visitors"): the secret
 * stays on the server, read from its environment, so the snippet never carries it.
 */
export const nodeSigningSnippet = `// On your server (Node.js), for the logged-in user:
const { createHmac } = require('node:crypto');
const signature = createHmac('sha256', process.env.SVC_IDENTITY_SECRET).update(userId).digest('hex');
// Put userId and signature into the page, where it calls:
// svc_api.setUserToken(userId, { signature });`;
