import { expect, test } from '../support/fixtures.ts';

test.describe('console: conversations', () => {
  test('console: a customer message appears live, the agent replies with Enter and the integrator gets it', async ({
    workspace,
    consolePage,
  }) => {
    const { agent, channel, integrator } = workspace;
    const ann = workspace.customer({ id: 42, name: 'Ann Live' });
    await consolePage.login(agent.email, agent.password);

    await test.step('the first message opens a chat that appears live, highlighted, with an unread badge', async () => {
      await ann.say('Hello, my order has not arrived');
      const entry = consolePage.chat('Ann Live');
      await expect(entry).toBeVisible();
      await expect(entry).toContainText('Hello, my order has not arrived');
      await expect(entry).toContainText(`${channel.name} · Chat API`);
      await expect(entry).toContainText('1 unread');
      await expect(entry).toContainText('New');
    });

    await test.step('a second message raises the unread count', async () => {
      await ann.say('Order 1234');
      await expect(consolePage.chat('Ann Live')).toContainText('2 unread');
    });

    await test.step('opening the chat shows the whole history and clears the badge', async () => {
      await consolePage.openChat('Ann Live');
      await expect(consolePage.messages.getByRole('listitem')).toHaveCount(2);
      await expect(consolePage.message('Hello, my order has not arrived')).toContainText('Ann Live');
      await expect(consolePage.message('Order 1234')).toBeVisible();
      await expect(consolePage.chat('Ann Live')).not.toContainText('unread');
      await expect(consolePage.clientDetails.getByText(channel.name)).toBeAttached();
    });

    await test.step('Enter sends the reply; the integrator receives it for the same customer', async () => {
      await consolePage.reply('Let me check that for you');
      await expect.poll(() => integrator.messagesFor(channel.public_id).length).toBe(1);
      const [sent] = integrator.messagesFor(channel.public_id);
      expect(sent!.recipient.id).toBe(42);
      expect(sent!.sender.name).toBe(agent.name);
      expect(sent!.message).toMatchObject({ type: 'text', text: 'Let me check that for you' });
    });

    await test.step('the reply shows as delivered', async () => {
      const mine = consolePage.message('Let me check that for you');
      await expect(mine).toContainText('You');
      await expect(mine.getByText('delivered')).toBeVisible();
    });

    await test.step('a message that arrives while the chat is open is shown without an unread badge', async () => {
      await ann.say('Thanks!');
      await expect(consolePage.message('Thanks!')).toBeVisible();
      await expect(consolePage.chat('Ann Live')).not.toContainText('unread');
      const path = test.info().outputPath('console-conversation.png');
      await consolePage.page.screenshot({ path });
      await test.info().attach('console-conversation', { path, contentType: 'image/png' });
    });
  });

  test('console: an integrator error marks the agent message failed with its text', async ({ workspace, consolePage }) => {
    const { agent, integrator } = workspace;
    const bob = workspace.customer({ name: 'Bob Blocked' });
    await bob.say('Hi');
    await consolePage.login(agent.email, agent.password);
    await consolePage.openChat('Bob Blocked');

    integrator.answerWith({ error: { code: 1, message: 'User blocked the bot' } });
    await consolePage.reply('Are you still there?');

    const mine = consolePage.message('Are you still there?');
    await test.step('the refusal shows on the message', async () => {
      await expect(mine.getByText('failed', { exact: true })).toBeVisible();
      await expect(mine).toContainText('User blocked the bot');
    });

    await test.step('once the integrator accepts again, Resend delivers it', async () => {
      integrator.answerWith(null);
      await mine.getByRole('button', { name: 'Resend' }).click();
      await expect(mine.getByText('delivered', { exact: true })).toBeVisible();
      await expect(mine).not.toContainText('User blocked the bot');
      expect(integrator.messagesFor(workspace.channel.public_id)).toHaveLength(2);
    });
  });

  test('console: the client typing shows an indicator, and the agent typing reaches the integrator', async ({ workspace, consolePage }) => {
    const { agent, channel, integrator } = workspace;
    const cleo = workspace.customer({ name: 'Cleo Typist' });
    await cleo.say('One question');
    await consolePage.login(agent.email, agent.password);
    await consolePage.openChat('Cleo Typist');

    await test.step('typein shows the indicator, typeout hides it', async () => {
      await cleo.typein();
      await expect(consolePage.typingIndicator).toHaveText('Cleo Typist is typing…');
      await cleo.typeout();
      await expect(consolePage.typingIndicator).toHaveCount(0);
    });

    await test.step('a new message from the client also ends the indicator', async () => {
      await cleo.typein();
      await expect(consolePage.typingIndicator).toBeVisible();
      await cleo.say('Is it waterproof?');
      await expect(consolePage.message('Is it waterproof?')).toBeVisible();
      await expect(consolePage.typingIndicator).toHaveCount(0);
    });

    await test.step('the agent typing is sent to the integrator as typein, then typeout on send', async () => {
      await consolePage.replyBox.pressSequentially('Yes, it');
      await expect.poll(() => integrator.postsFor(channel.public_id).map((p) => p.message.type)).toContain('typein');
      await consolePage.replyBox.press('Enter');
      // typeout and the message leave at once, so either may reach the integrator first.
      await expect
        .poll(() =>
          integrator
            .postsFor(channel.public_id)
            .map((p) => p.message.type)
            .sort(),
        )
        .toEqual(['text', 'typein', 'typeout']);
    });
  });

  test('console: Reply takes a chat from the bot and Close moves it to the closed tab', async ({ admin, workspace, consolePage }) => {
    const { agent, channel, integrator } = workspace;
    await admin.attachBot(channel, `${integrator.url}/bot`);
    const dora = workspace.customer({ name: 'Dora Botchat' });
    await dora.say('I want to talk to a human');
    await consolePage.login(agent.email, agent.password);

    await test.step('the chat starts with the bot', async () => {
      await expect(consolePage.chat('Dora Botchat')).toHaveCount(0);
      await consolePage.showTab('With bot');
      await expect(consolePage.chat('Dora Botchat')).toBeVisible();
    });

    await test.step('Reply takes it: it leaves the bot tab for the open tab', async () => {
      await consolePage.openChat('Dora Botchat');
      await consolePage.accept();
      await expect(consolePage.chat('Dora Botchat')).toHaveCount(0);
      await consolePage.showTab('Open');
      await expect(consolePage.chat('Dora Botchat')).toBeVisible();
    });

    await test.step('Close (with blacklist) moves it to the closed tab and ends the reply box', async () => {
      await consolePage.closeChat({ blacklist: true });
      await expect(consolePage.replyBox).toHaveCount(0);
      await expect(consolePage.chat('Dora Botchat')).toHaveCount(0);
      await consolePage.showTab('Closed');
      await expect(consolePage.chat('Dora Botchat')).toBeVisible();
    });

    await test.step('the blacklisted client is refused until the agent unblocks them', async () => {
      await expect(dora.say('Let me in')).rejects.toThrow(/answered 403/);
      await expect(consolePage.clientDetails.getByText('This client is blacklisted')).toBeAttached();
      await consolePage.unblockClient();
      await dora.say('Thank you');
    });
  });
});
