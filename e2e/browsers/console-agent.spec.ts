import { e2eEnv } from '../support/e2e-env.ts';
import { expect, test } from './fixtures.ts';

test.describe('console: agent', () => {
  test("console: the agent signs in, takes the visitor's waiting chat, answers and closes it, and the visitor sees both", async ({
    widget,
    visitor,
    agentConsole,
  }) => {
    await test.step('a visitor writes while no agent has the console open', async () => {
      await visitor.goto(widget.site.url);
      await visitor.api(`api.setContactInfo({ name: 'Vera Visitor' })`);
      await visitor.open();
      await visitor.say('Hello, is the sencha in stock?');
    });

    await test.step('the agent signs in and takes the waiting chat', async () => {
      await agentConsole.signIn(e2eEnv().baseUrl, widget.agent.email, widget.agent.password);
      await agentConsole.openChat('Vera Visitor');
      await agentConsole.expectMessage('Hello, is the sencha in stock?');
      await agentConsole.take();
      const chat = await widget.agentApi.chatWith('Hello, is the sencha in stock?');
      await expect.poll(async () => (await widget.agentApi.chat(chat.id)).assigned_agent_id).toBe(widget.agent.id);
    });

    await test.step('the answer reaches the visitor', async () => {
      await agentConsole.answer('Yes, 40 tins of it.');
      await visitor.expectMessage('Yes, 40 tins of it.');
    });

    await test.step('the agent closes the chat and the visitor is told', async () => {
      await agentConsole.closeChat();
      await visitor.expectMessage('The chat has ended. Write again to start a new one.');
    });
  });
});
