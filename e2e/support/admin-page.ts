import { expect, type Locator, type Page } from '@playwright/test';
import type { TestAgent } from './admin-api.ts';
import { ConsolePage } from './console-page.ts';

type Section = 'Channels' | 'Departments' | 'Bots' | 'Agents' | 'Delivery log' | 'Erasure log' | 'Reports';

/** The console's admin panel (Manage) as an admin sees it: by roles and labels, never by CSS classes. */
export class AdminPage {
  readonly console: ConsolePage;
  readonly panel: Locator;
  readonly manageButton: Locator;

  constructor(readonly page: Page) {
    this.console = new ConsolePage(page);
    this.panel = page.getByRole('main').filter({ has: page.getByRole('heading', { name: 'Manage', level: 2 }) });
    this.manageButton = page.getByRole('button', { name: 'Manage' });
  }

  /** Logs the admin in and opens Manage on a section. */
  async open(admin: TestAgent, section: Section = 'Channels'): Promise<void> {
    await this.console.login(admin.email, admin.password);
    await this.manageButton.click();
    await expect(this.panel).toBeVisible();
    await this.show(section);
  }

  async show(section: Section): Promise<void> {
    const item = this.panel.getByRole('navigation', { name: 'Manage sections' }).getByRole('button', { name: section, exact: true });
    await item.click();
    await expect(item).toHaveAttribute('aria-current', 'page');
  }

  /** The refusal shown next to a form: our check or the API's own message. */
  alert(): Locator {
    return this.panel.getByRole('alert');
  }

  /** The value of a read-only copy field ("Endpoint", "Status URL", "Embed snippet"...). */
  async copyValue(label: string): Promise<string> {
    return this.panel.getByLabel(label, { exact: true }).inputValue();
  }

  /** Clicks an action that asks first, then its confirming button. */
  async confirm(action: string, confirmLabel: string): Promise<void> {
    await this.panel.getByRole('button', { name: action, exact: true }).click();
    await this.panel.getByRole('group', { name: action }).getByRole('button', { name: confirmLabel }).click();
  }

  channelLink(name: string): Locator {
    return this.panel.getByRole('button', { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) });
  }
}
