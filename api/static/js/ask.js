// Ask: a chat box over POST /v1/ai/query, showing the answer and the tools the agent used.
import * as api from './api.js';
import { busy, describe, field, h } from './ui.js';

const history = []; // this tab's conversation: [{role, content}]

export async function askView(root) {
  const log = h('div', { class: 'chat', id: 'chat', role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation' });
  const collections = api.offers('GET', '/v1/collection/') ? await api.allCollections().catch(() => []) : [];
  const scope = field('About a collection (optional)', 'collectionId', { type: 'select', value: '',
    options: [['', 'No collection'], ...collections.map((c) => [c.id, c.name || 'Untitled'])] });
  const question = field('Your question', 'query', { type: 'textarea', required: true, maxlength: 1000,
    placeholder: 'e.g. What is a PSA 10 Shohei Ohtani 2024 Topps Chrome #1 worth?', hint: 'Enter sends; Shift+Enter adds a line.' });
  const textarea = question.querySelector('textarea');
  const send = h('button', { type: 'submit' }, 'Ask');
  const form = h('form', { class: 'panel', 'aria-label': 'Ask a question' }, question, scope,
    h('div', { class: 'actions' }, send, h('button', { type: 'button', class: 'secondary', onclick: () => {
      history.length = 0; log.replaceChildren(); textarea.focus();
    } }, 'New conversation')));
  for (const m of history) log.append(bubble(m.role, m.content, m.toolsUsed));
  textarea.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && !ev.shiftKey) { ev.preventDefault(); form.requestSubmit(); }
  });
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const text = textarea.value.trim();
    if (!text) return;
    const body = { query: text, conversationHistory: history.slice(-50).map(({ role, content }) => ({ role, content: content.slice(0, 10000) })) };
    const collectionId = scope.querySelector('select').value;
    if (collectionId) body.context = { collectionId };
    log.append(bubble('user', text));
    textarea.value = '';
    await busy(send, async () => {
      send.textContent = 'Thinking…';
      try {
        const res = await api.post('/v1/ai/query', body);
        history.push({ role: 'user', content: text }, { role: 'assistant', content: res.answer, toolsUsed: res.toolsUsed });
        log.append(bubble('assistant', res.answer, res.toolsUsed, res.processingTime));
      } catch (e) {
        log.append(h('div', { class: 'bubble error', role: 'alert' }, describe(e)));
        textarea.value = text;
      }
    });
    textarea.focus();
  });
  root.append(h('h1', {}, 'Ask Cardwise'), h('p', { class: 'muted' },
    'Ask about cards, prices, populations or your collections. The answer lists the API tools it used.'), log, form);
  textarea.focus();
}

function bubble(role, text, tools = null, ms = null) {
  return h('div', { class: `bubble ${role}` },
    h('span', { class: 'visually-hidden' }, role === 'user' ? 'You: ' : 'Cardwise: '), text,
    tools && tools.length ? h('div', {}, h('span', { class: 'muted' }, 'Tools used: '),
      h('ul', { class: 'chips tools-used', 'aria-label': 'Tools used' }, tools.map((t) => h('li', { class: 'chip' }, t)))) : null,
    ms != null ? h('div', { class: 'muted' }, `${(ms / 1000).toFixed(1)} s`) : null);
}
