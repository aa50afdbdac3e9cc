import { uniqueSuffix } from '../support/admin-api.ts';
import { expect, test } from '../support/widget-fixtures.ts';

test.describe('console: departments', () => {
  test("console: the chat's department shows in the client panel as text and follows a move live", async ({
    widget,
    widgetPage,
    admin,
    consolePage,
  }) => {
    const marked = await admin.createDepartment(`<b>Wholesale</b> ${uniqueSuffix()}`);
    await widgetPage.goto(widget.site.url);
    await widgetPage.open();
    await widgetPage.say('Do you sell by the pallet?');
    const chat = await widget.agentApi.chatWith('Do you sell by the pallet?');

    await consolePage.login(widget.agent.email, widget.agent.password);
    await consolePage.openChat('Anonymous');
    // The value beside the "Department" term of the client panel.
    const department = consolePage.clientDetails.locator('dt:text-is("Department") + dd');

    await test.step('no department yet', async () => {
      await expect(department).toHaveText('—');
    });

    await test.step('moved to a department: its name appears at once, as literal text', async () => {
      await widget.agentApi.setDepartment(chat.id, marked.id);
      await expect(department).toHaveText(marked.name);
      await expect(consolePage.clientDetails.locator('b')).toHaveCount(0);
    });
  });
});
