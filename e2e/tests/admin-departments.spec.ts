import type { DepartmentView } from '@svc/protocol';
import { uniqueSuffix } from '../support/admin-api.ts';
import { expect, test } from '../support/admin-fixtures.ts';

test.describe('admin: departments', () => {
  test('admin: departments are created with agents, renamed and deleted; a taken name shows the API message', async ({
    admin,
    adminAgent,
    adminPage,
  }) => {
    const name = `Wholesale ${uniqueSuffix()}`;
    const byName = async (wanted: string) =>
      (await admin.get<{ departments: DepartmentView[] }>('/api/v1/departments')).departments.find((d) => d.name === wanted);
    await adminPage.open(adminAgent, 'Departments');
    const list = adminPage.panel.getByRole('list', { name: 'Departments' });
    const create = adminPage.panel.getByRole('form', { name: 'New department' });

    await test.step('create', async () => {
      await create.getByLabel('Department name').fill(name);
      await create.getByRole('checkbox', { name: new RegExp(adminAgent.email) }).check();
      await create.getByRole('button', { name: 'Create department' }).click();
      await expect(list.getByRole('listitem', { name })).toContainText(adminAgent.name);
      expect((await byName(name))?.agent_ids).toEqual([adminAgent.id]);
    });

    await test.step('a name in use, whatever the letter case, is refused with the API message', async () => {
      await create.getByLabel('Department name').fill(name.toUpperCase());
      await create.getByRole('button', { name: 'Create department' }).click();
      await expect(create.getByRole('alert')).toHaveText(`name: a department named "${name.toUpperCase()}" already exists`);
    });

    const renamed = `Trade sales ${uniqueSuffix()}`;
    await test.step('rename and drop its agent', async () => {
      await list.getByRole('button', { name: `Edit ${name}` }).click();
      const edit = adminPage.panel.getByRole('form', { name: `Edit ${name}` });
      await edit.getByLabel('Department name').fill(renamed);
      await edit.getByRole('checkbox', { name: new RegExp(adminAgent.email) }).uncheck();
      await edit.getByRole('button', { name: 'Save department' }).click();
      await expect(list.getByRole('listitem', { name: renamed })).toContainText('No agents');
      expect(await byName(renamed)).toMatchObject({ agent_ids: [] });
    });

    await test.step('delete after a confirmation, with the keyboard alone', async () => {
      await list.getByRole('button', { name: `Delete ${renamed}` }).focus();
      await adminPage.page.keyboard.press('Enter');
      const question = list.getByRole('group', { name: `Delete ${renamed}` });
      await expect(question.getByRole('button', { name: 'Cancel' })).toBeFocused();
      await adminPage.page.keyboard.press('Shift+Tab');
      await expect(question.getByRole('button', { name: 'Yes, delete it' })).toBeFocused();
      await adminPage.page.keyboard.press('Enter');
      await expect(list.getByRole('listitem', { name: renamed })).toHaveCount(0);
      expect(await byName(renamed)).toBeUndefined();
    });
  });
});
