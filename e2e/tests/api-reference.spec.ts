import { expect, test } from '../support/admin-fixtures.ts';
import { recordCspViolations } from '../support/csp-violations.ts';

// Issue 18: the API reference at /docs/api/, rendered in the browser from GET /api/openapi.json by Redoc,
// served from our origin under its own policy, and reached from the console's admin panel.
test.describe('api reference', () => {
  test("api reference: opened from Manage, it renders the Chat API's intake operation under its policy", async ({
    adminAgent,
    adminPage,
  }) => {
    // The console, then Redoc's 1 MB bundle rendering some 80 operations: on a loaded machine it outlasts 30 s.
    test.slow();
    await adminPage.open(adminAgent);
    const link = adminPage.panel.getByRole('link', { name: 'API reference' });
    await expect(link).toHaveAttribute('target', '_blank');
    const url = new URL((await link.getAttribute('href'))!, adminPage.page.url());
    expect(url.pathname).toBe('/docs/api/');
    // The tab the link opens, with the policy recorder in place before any of its scripts runs.
    const docs = await adminPage.page.context().newPage();
    const violations = await recordCspViolations(docs);
    await docs.goto(url.toString());

    await test.step('the Chat API section lists the customer-message operation, with its request body', async () => {
      await expect(docs).toHaveTitle('svc-chat API reference');
      await docs.getByRole('menuitem', { name: 'Chat API', exact: true }).click();
      const intake = docs.getByRole('heading', { name: "A customer's message or typing change (the channel's endpoint)" });
      await expect(intake).toBeVisible();
      await expect(docs.getByText('/chat-api/{random}/{publicId}').first()).toBeAttached();
      await expect(docs.getByText('Request Body schema: application/json').first()).toBeVisible();
    });

    await test.step('the webhooks the service sends are listed', async () => {
      await expect(docs.getByRole('menuitem', { name: 'Sent to site owners (server webhooks)' })).toBeVisible();
    });

    // Redoc's footer asks for its logo on a CDN; the policy refuses it and Redoc hides the picture. Nothing else.
    const refused = (await violations()).filter((v) => !v.blocked.includes('cdn.redoc.ly/redoc/logo-mini.svg'));
    expect(refused).toEqual([]);
  });
});
