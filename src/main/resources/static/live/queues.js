// The queue browser, below the live page's charts: this instance's queues through the REST API
// (docs/api.md), refreshed every 2 s, and one opened queue's messages, browsed with ?peek (nothing is
// leased), with its actions. No framework: the markup is index.html's, this fills it in.
// A fair queue (a standard queue whose messages carry groups) shows its fair-queue counts in the
// last column. For .ci/tools/live-page-check.mjs: #queues carries data-refreshes, each row data-queue, each
// message row data-id, and the opened queue's panel data-queue.
(function () {
  'use strict';

  const REFRESH_MS = 2000;
  // GET /queues/{queue} for each listed queue gives its settings and dead-letter sources; past this
  // many queues (a load test's hundreds) the rest show their counts only.
  const MAX_DETAILED = 50;
  const BODY_SHOWN = 120;

  const section = document.getElementById('queues');
  const list = document.querySelector('#queue-list tbody');
  const detail = document.getElementById('queue-detail');
  const messages = detail.querySelector('#message-list tbody');

  // name -> { view: GET /queues/{name} (or the listing's counts), depth, time } of the last refresh
  let known = new Map();
  let opened = null;
  let shownMessages = '';
  const expanded = new Set();
  let refreshes = 0;

  // --- talking to the API ---

  // A problem+json answer, thrown so a caller shows its title and detail inline.
  class ApiError extends Error {
    constructor(status, problem) {
      super((problem.title || 'HTTP ' + status) + (problem.detail ? ': ' + problem.detail : ''));
      this.status = status;
    }
  }

  // fetch, with the page's bearer token when it has one (live.js keeps /#token=... in sessionStorage);
  // resolves to the parsed JSON answer, or null for an answer without a body.
  async function api(method, path, { body, headers = {} } = {}) {
    const token = sessionStorage.getItem('qs-token');
    const all = { Accept: 'application/json', ...headers };
    if (token) {
      all.Authorization = 'Bearer ' + token;
    }
    if (body !== undefined && !all['Content-Type']) {
      all['Content-Type'] = 'application/json';
    }
    const response = await fetch(path, {
      method, headers: all, cache: 'no-store',
      body: body === undefined || typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    const json = text ? JSON.parse(text) : null;
    if (!response.ok) {
      throw new ApiError(response.status, json || {});
    }
    return json;
  }

  function queuePath(name) {
    return '/queues/' + encodeURIComponent(name);
  }

  // --- the list ---

  async function refresh() {
    try {
      const listing = await api('GET', '/queues');
      const names = listing.queues.map((q) => q.name).sort();
      const views = await Promise.all(listing.queues.map((counts) => describe(counts, names)));
      showList(views);
      setError(document.getElementById('queues-error'), null);
      if (opened) {
        await refreshOpened();
      }
    }
    catch (error) {
      setError(document.getElementById('queues-error'), error);
    }
    refreshes++;
    section.dataset.refreshes = String(refreshes);
    setTimeout(refresh, REFRESH_MS);
  }

  // The queue's view (GET /queues/{queue}) for the first MAX_DETAILED names, else its listed counts.
  async function describe(counts, names) {
    if (names.indexOf(counts.name) >= MAX_DETAILED) {
      return counts;
    }
    try {
      return await api('GET', queuePath(counts.name));
    }
    catch (error) {
      return counts; // emptied and removed between the two requests
    }
  }

  function showList(views) {
    const now = performance.now();
    const next = new Map();
    views.sort((a, b) => a.name.localeCompare(b.name));
    list.replaceChildren(...views.map((view) => {
      const depth = view.ready + view.inflight + view.delayed;
      const before = known.get(view.name);
      next.set(view.name, { view, depth, time: now });
      const perSecond = before ? (depth - before.depth) / ((now - before.time) / 1000) : null;
      return queueRow(view, perSecond);
    }));
    known = next;
    document.getElementById('queues-empty').hidden = views.length > 0;
  }

  function queueRow(view, perSecond) {
    const settings = view.settings || {};
    const row = document.createElement('tr');
    row.dataset.queue = view.name;
    row.classList.toggle('opened', view.name === opened);
    const open = document.createElement('button');
    open.type = 'button';
    open.className = 'link';
    open.textContent = view.name;
    open.addEventListener('click', () => openQueue(view.name));
    row.appendChild(cell(open, 'name'));
    row.appendChild(cell(view.ready, 'ready n'));
    row.appendChild(cell(view.inflight, 'inflight n'));
    row.appendChild(cell(view.delayed, 'delayed n'));
    row.appendChild(cell(view.oldestMessageAgeSeconds ?? '', 'oldest n'));
    row.appendChild(cell(perSecond == null ? '' : signed(perSecond), 'rate n'));
    row.appendChild(cell(settings.leaseSeconds, 'n'));
    row.appendChild(cell(settings.delaySeconds, 'n'));
    row.appendChild(cell(settings.retentionSeconds, 'n'));
    row.appendChild(cell(settings.maxMessageBytes, 'n'));
    row.appendChild(cell(settings.deadLetterQueue
      ? settings.deadLetterQueue + ' (' + settings.maxDeliveries + ')' : '', 'target'));
    row.appendChild(cell((view.deadLetterSources || []).join(', '), 'sources'));
    row.appendChild(cell(fairText(view.fair), 'fair'));
    return row;
  }

  // A fair queue's counts (GET /queues/{queue}'s fair, left out for a queue without groups):
  // noisy groups, then the quiet groups' messages ready / in flight / delayed, and the age of the
  // oldest ready one when there is one.
  function fairText(fair) {
    if (!fair) {
      return '';
    }
    return fair.noisyGroups + ' noisy · ' + fair.quietVisible + '/' + fair.quietNotVisible + '/'
      + fair.quietDelayed + (fair.quietOldestAgeSeconds > 0 ? ' (oldest ' + fair.quietOldestAgeSeconds + ' s)' : '');
  }

  function cell(content, className) {
    const td = document.createElement('td');
    td.className = className || '';
    if (content instanceof Node) {
      td.appendChild(content);
    }
    else {
      td.textContent = content == null ? '' : String(content);
    }
    return td;
  }

  function signed(value) {
    const rounded = Math.abs(value) >= 10 ? value.toFixed(0) : value.toFixed(1);
    return (value > 0 ? '+' : '') + (Number(rounded) === 0 ? '0' : rounded);
  }

  // --- one opened queue ---

  function openQueue(name) {
    opened = name;
    shownMessages = '';
    expanded.clear();
    detail.hidden = false;
    detail.dataset.queue = name;
    detail.querySelector('.name').textContent = name;
    setError(detail.querySelector('.error'), null);
    notify('');
    list.querySelectorAll('tr').forEach((row) => row.classList.toggle('opened', row.dataset.queue === name));
    fillSettings(known.get(name) ? known.get(name).view : {});
    refreshOpened();
    detail.scrollIntoView({ block: 'nearest' });
  }

  function close() {
    opened = null;
    detail.hidden = true;
    delete detail.dataset.queue;
    list.querySelectorAll('tr.opened').forEach((row) => row.classList.remove('opened'));
  }

  // The opened queue's own view, messages and move tasks: on each refresh, and after each action.
  async function refreshOpened() {
    const name = opened;
    try {
      const view = await api('GET', queuePath(name));
      const peek = detail.querySelector('select[name="peek"]').value;
      const browsed = await api('GET', queuePath(name) + '/messages?peek=' + peek);
      const tasks = (view.deadLetterSources || []).length
        ? (await api('GET', queuePath(name) + '/redrive/tasks')).tasks : [];
      if (name === opened) {
        showQueue(view, browsed.messages, tasks);
      }
    }
    catch (error) {
      if (name === opened) {
        setError(detail.querySelector('.error'), error.status === 404
          ? new Error('Queue ' + name + ' no longer exists (emptied and removed, or deleted).') : error);
      }
    }
  }

  function showQueue(view, browsed, tasks) {
    detail.querySelector('.kind').textContent = view.explicit
      ? 'created explicitly: stays until deleted' : 'created by a push: removed once empty';
    const sources = view.deadLetterSources || [];
    detail.querySelector('.sources').textContent = sources.length
      ? 'The dead-letter queue of ' + sources.join(', ') + '.'
      : 'No queue names this one as its dead-letter queue (a redrive needs "to").';
    showTasks(tasks);
    // rendered only when they changed, so an expanded body stays open between refreshes
    const json = JSON.stringify(browsed);
    if (json !== shownMessages) {
      shownMessages = json;
      messages.replaceChildren(...browsed.map(messageRow));
      detail.querySelector('#message-list + .empty').hidden = browsed.length > 0;
    }
  }

  function messageRow(message) {
    const row = document.createElement('tr');
    row.dataset.id = String(message.id);
    row.appendChild(cell(message.id, 'n'));
    row.appendChild(cell(message.state, 'state ' + message.state));
    row.appendChild(cell(message.deliveries, 'n'));
    row.appendChild(cell(message.sentAt ? new Date(message.sentAt).toLocaleTimeString() : '', 'sent'));
    row.appendChild(cell(bodyOf(message), 'body'));
    row.appendChild(cell(Object.entries(message.attributes || {})
      .map(([name, a]) => name + ' (' + a.type + ') = ' + a.value).join('\n'), 'attributes'));
    row.appendChild(cell(message.deadLetter
      ? message.deadLetter.source + ' after ' + message.deadLetter.deliveries : '', 'origin'));
    return row;
  }

  // A long body shows its start; a click expands it (remembered by id across refreshes).
  function bodyOf(message) {
    if (message.body.length <= BODY_SHOWN) {
      const pre = document.createElement('pre');
      pre.textContent = message.body;
      return pre;
    }
    const details = document.createElement('details');
    const summary = document.createElement('summary');
    summary.textContent = message.body.slice(0, BODY_SHOWN) + '… (' + message.body.length + ' characters)';
    const pre = document.createElement('pre');
    pre.textContent = message.body;
    details.append(summary, pre);
    details.open = expanded.has(message.id);
    details.addEventListener('toggle', () => (details.open ? expanded.add(message.id) : expanded.delete(message.id)));
    return details;
  }

  function showTasks(tasks) {
    const items = tasks.map((task) => {
      const item = document.createElement('li');
      item.textContent = task.status + ': ' + task.moved + ' of ' + task.toMove + ' moved'
        + (task.maxPerSecond ? ', at most ' + task.maxPerSecond + '/s' : '')
        + (task.destination ? ', to ' + task.destination : '')
        + (task.failureReason ? ' (' + task.failureReason + ')' : '');
      if (task.status === 'RUNNING') {
        const cancel = document.createElement('button');
        cancel.type = 'button';
        cancel.dataset.action = 'cancel-task';
        cancel.dataset.task = task.handle;
        cancel.textContent = 'Cancel';
        item.appendChild(cancel);
      }
      return item;
    });
    detail.querySelector('.tasks').replaceChildren(...items);
  }

  // --- actions ---

  function onAction(event) {
    const button = event.target.closest('button[data-action]');
    if (!button) {
      return;
    }
    const actions = {
      close: async () => close(),
      purge, delete: deleteQueue, redrive, 'start-task': startTask,
      'cancel-task': () => cancelTask(button.dataset.task),
    };
    run(event, actions[button.dataset.action]);
  }

  // Runs an action on the opened queue: its problem, if any, inline; then the panel refreshed.
  async function run(event, action) {
    event.preventDefault();
    setError(detail.querySelector('.error'), null);
    notify('');
    try {
      await action();
    }
    catch (error) {
      setError(detail.querySelector('.error'), error);
    }
    if (opened) {
      await refreshOpened();
    }
  }

  async function send() {
    const form = detail.querySelector('#send-form');
    const delay = form.elements.delay.value;
    const sent = await api('POST', queuePath(opened) + '/messages' + (delay ? '?delay=' + delay : ''), {
      body: form.elements.body.value, headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
    form.elements.body.value = '';
    notify('Sent message ' + sent.id + '.');
  }

  async function purge() {
    const entry = known.get(opened);
    const held = entry ? entry.depth + ' message(s)' : 'every message';
    if (!window.confirm('Purge ' + held + ' of ' + opened + ', ready, in flight and delayed? They are gone for good.')) {
      notify('Purge cancelled.');
      return;
    }
    await api('DELETE', queuePath(opened) + '/messages');
    notify('Purged.');
  }

  async function deleteQueue() {
    if (!window.confirm('Delete queue ' + opened + ' with its messages and settings?')) {
      notify('Delete cancelled.');
      return;
    }
    await api('DELETE', queuePath(opened));
    close();
  }

  function redriveTarget() {
    const to = detail.querySelector('#redrive-form').elements.to.value.trim();
    return to ? { to } : {};
  }

  async function redrive() {
    const answer = await api('POST', queuePath(opened) + '/redrive', { body: redriveTarget() });
    notify('Redriven: ' + answer.moved + ' moved.');
  }

  // A move task: the same redrive in the background, paced (SQS's StartMessageMoveTask).
  async function startTask() {
    const pace = Number(detail.querySelector('#redrive-form').elements.maxPerSecond.value);
    const body = { ...redriveTarget(), ...(pace ? { maxPerSecond: pace } : {}) };
    const task = await api('POST', queuePath(opened) + '/redrive', {
      body, headers: { Prefer: 'respond-async' },
    });
    notify('Move task started: ' + task.toMove + ' to move.');
  }

  async function cancelTask(handle) {
    const task = await api('DELETE', queuePath(opened) + '/redrive/tasks/' + encodeURIComponent(handle));
    notify('Move task ' + task.status.toLowerCase() + ' after ' + task.moved + ' moved.');
  }

  function fillSettings(view) {
    const settings = view.settings || {};
    const form = detail.querySelector('#settings-form');
    ['leaseSeconds', 'delaySeconds', 'retentionSeconds', 'maxMessageBytes', 'maxDeliveries', 'deadLetterQueue']
      .forEach((name) => { form.elements[name].value = settings[name] == null ? '' : settings[name]; });
  }

  // PUT of the fields the form changed; maxDeliveries and deadLetterQueue go together, and an
  // emptied dead-letter queue is sent as null (none).
  async function saveSettings() {
    const form = detail.querySelector('#settings-form');
    const current = (known.get(opened) && known.get(opened).view.settings) || {};
    const change = {};
    ['leaseSeconds', 'delaySeconds', 'retentionSeconds', 'maxMessageBytes'].forEach((name) => {
      const value = form.elements[name].value;
      if (value !== '' && Number(value) !== current[name]) {
        change[name] = Number(value);
      }
    });
    const target = form.elements.deadLetterQueue.value.trim();
    const deliveries = form.elements.maxDeliveries.value;
    if (!target && current.deadLetterQueue) {
      change.deadLetterQueue = null;
    }
    else if (target && (target !== current.deadLetterQueue || Number(deliveries) !== current.maxDeliveries)) {
      change.deadLetterQueue = target;
      change.maxDeliveries = deliveries === '' ? null : Number(deliveries);
    }
    const view = await api('PUT', queuePath(opened), { body: change });
    known.set(opened, { ...(known.get(opened) || { depth: 0, time: performance.now() }), view });
    fillSettings(view);
    notify(Object.keys(change).length ? 'Settings saved.' : 'Nothing changed.');
  }

  function notify(text) {
    detail.querySelector('.notice').textContent = text;
  }

  function setError(element, error) {
    element.textContent = error ? error.message : '';
    element.hidden = !error;
  }

  // last, once the class and functions above are defined
  detail.addEventListener('click', onAction);
  detail.querySelector('#send-form').addEventListener('submit', (event) => run(event, send));
  detail.querySelector('#settings-form').addEventListener('submit', (event) => run(event, saveSettings));
  detail.querySelector('select[name="peek"]').addEventListener('change', () => refreshOpened());
  refresh();
}());
