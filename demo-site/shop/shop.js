// The demo shop's use of the chat widget: the page callbacks of spec 6.3 (defined before the snippet, so the
// widget finds them from its first moment) and buttons that call each svc_api method of spec 4.4.
(function () {
  'use strict';

  function append(listId, text) {
    const list = document.getElementById(listId);
    if (!list) return;
    const item = document.createElement('li');
    item.textContent = `${new Date().toLocaleTimeString()}  ${text}`;
    list.append(item);
    list.scrollTop = list.scrollHeight;
  }

  // spec 6.3: the widget calls these; each one only records that it was called.
  const callbacks = [
    'svc_onLoadCallback',
    'svc_onOpen',
    'svc_onClose',
    'svc_onMessageSent',
    'svc_onAccept',
    'svc_onIntroduction',
    'svc_onResizeCallback',
    'svc_onChangeState',
  ];
  for (const name of callbacks) {
    window[name] = function (...args) {
      append('callbacks', `${name}(${args.map((a) => JSON.stringify(a)).join(', ')})`);
    };
  }

  const cart = [];

  /** Calls one svc_api method and shows what it returned, or what it threw. */
  function show(label, call) {
    if (!window.svc_api) return append('results', `${label}: the widget is not loaded (is the snippet on the page?)`);
    try {
      const result = call(window.svc_api);
      append('results', `${label} → ${result === undefined ? 'undefined' : JSON.stringify(result)}`);
    } catch (err) {
      append('results', `${label} threw ${err}`);
    }
  }

  const calls = {
    open: () => show('open()', (api) => api.open()),
    openCall: () => show("open({start: 'call'})", (api) => api.open({ start: 'call' })),
    close: () => show('close()', (api) => api.close()),
    chatMode: () => show('chatMode()', (api) => api.chatMode()),
    getContactInfo: () => show('getContactInfo()', (api) => api.getContactInfo()),
    getVisitorNumber: () =>
      show('getVisitorNumber(cb)', (api) =>
        api.getVisitorNumber((err, number) => append('results', `getVisitorNumber callback → ${err ? `error: ${err.message}` : number}`)),
      ),
    setContactInfo: () =>
      show('setContactInfo', (api) => api.setContactInfo({ name: 'Tess Tealover', email: 'tess@example.com', phone: '+44 20 7946 0000' })),
    setCustomData: () => show('setCustomData', (api) => api.setCustomData(cartFields())),
    setCustomDataWrong: () => show("setCustomData('not an array')", (api) => api.setCustomData('not an array')),
    setUserToken: () => show("setUserToken('customer-4711')", (api) => api.setUserToken('customer-4711')),
    setUserTokenWrong: () => show("setUserToken('')", (api) => api.setUserToken('')),
    sendOfflineMessage: () =>
      show('sendOfflineMessage({name, email, message})', (api) =>
        api.sendOfflineMessage({ name: 'Demo visitor', email: 'visitor@example.com', message: 'Do you deliver on Saturdays?' }),
      ),
    sendOfflineMessageWrong: () =>
      show('sendOfflineMessage({message})', (api) => api.sendOfflineMessage({ message: 'No way to answer me' })),
    wrongCall: () => show("open('call')", (api) => api.open('call')),
  };

  function cartFields() {
    const total = cart.reduce((sum, item) => sum + item.price, 0);
    return [
      { title: 'Cart', key: 'Items', content: cart.map((item) => item.name).join(', ') || 'empty' },
      { key: 'Total', content: `${total.toFixed(2)} €` },
      { title: 'Shop', key: 'Page', content: document.title, link: location.href },
    ];
  }

  document.addEventListener('DOMContentLoaded', () => {
    for (const button of document.querySelectorAll('[data-call]')) {
      button.addEventListener('click', () => calls[button.dataset.call]());
    }
    for (const button of document.querySelectorAll('[data-product]')) {
      button.addEventListener('click', () => {
        cart.push({ name: button.dataset.product, price: Number(button.dataset.price) });
        document.getElementById('cart').textContent = `In your cart: ${cart.map((item) => item.name).join(', ')}.`;
        // A live update of the agent's side panel while a chat is open (spec 4.4 setCustomData).
        show('setCustomData (cart)', (api) => api.setCustomData(cartFields()));
      });
    }
  });
})();
