// The customer's side of the sample app: every text is shown with textContent, never as HTML.
const $ = (id) => document.getElementById(id);
const log = $('log');
const status = (text) => ($('status').textContent = text);

const customerInput = $('customer');
customerInput.value = localStorage.getItem('demo-customer') ?? `customer-${Math.floor(Math.random() * 1e6)}`;
$('name').value = localStorage.getItem('demo-name') ?? '';
localStorage.setItem('demo-customer', customerInput.value);

function show(author, text, detail) {
  const item = document.createElement('li');
  item.className = author;
  const who = document.createElement('strong');
  who.textContent = author === 'me' ? 'You' : author;
  const body = document.createElement('span');
  body.textContent = text;
  item.append(who, body);
  if (detail) {
    const small = document.createElement('small');
    small.textContent = detail;
    item.append(small);
  }
  log.append(item);
  item.scrollIntoView({ block: 'end' });
}

function describe(message) {
  if (message.type === 'text') return message.text ?? '';
  if (message.type === 'location') return `📍 ${message.latitude}, ${message.longitude}`;
  return `[${message.type}] ${message.file_name ?? message.file ?? ''} ${message.text ?? ''}`.trim();
}

let events;
function listen() {
  events?.close();
  events = new EventSource(`api/events?customer=${encodeURIComponent(customerInput.value)}`);
  events.onmessage = (e) => {
    const reply = JSON.parse(e.data);
    if (reply.kind === 'typing') {
      $('typing').hidden = reply.body.message.type !== 'typein';
      return;
    }
    $('typing').hidden = true;
    show(reply.body.sender?.name ?? 'Agent', describe(reply.body.message), `message id ${reply.body.message.id}`);
  };
}

async function loadEndpoint() {
  const res = await fetch('api/channel');
  const { endpoint } = await res.json();
  if (endpoint && !$('endpoint').value) $('endpoint').value = endpoint;
  if (!endpoint) setTimeout(loadEndpoint, 2000);
}

$('composer').addEventListener('submit', async (event) => {
  event.preventDefault();
  const text = $('text').value;
  localStorage.setItem('demo-name', $('name').value);
  const sender = { id: customerInput.value, ...($('name').value ? { name: $('name').value } : {}), url: location.href };
  const res = await fetch('api/send', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ endpoint: $('endpoint').value || undefined, sender, message: { type: 'text', text } }),
  });
  const answer = await res.json().catch(() => ({}));
  if (res.ok) {
    show('me', text);
    $('text').value = '';
    status('');
  } else status(`Not sent (${res.status}): ${answer.error?.message ?? answer.error ?? 'unknown error'}`);
});

customerInput.addEventListener('change', () => {
  localStorage.setItem('demo-customer', customerInput.value);
  listen();
});
listen();
loadEndpoint();
