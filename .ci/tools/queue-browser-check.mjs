// The queue browser's part of the live-page check (live-page-check.mjs calls it with its page):
// makes a queue with settings and a dead-letter queue through the REST API, then, in the page,
// checks that the queue is listed with its counts and settings (and a fair queue with its fair-queue
// counts), that opening it shows its messages'
// bodies (browsed, not leased), and that a purge asks first: dismissed, nothing goes; accepted,
// the count goes to 0. Saves a screenshot of the browser with the queue open, before the purge.
const QUEUE = 'ci-browser';
const DLQ = 'ci-browser-dlq';
// a fair queue: a backlog of one group (noisy once it has 30 released) and two quiet groups' messages
const FAIR = 'ci-browser-fair';
const LONG_BODY = 'a body longer than the browser shows at first: ' + 'lorem ipsum dolor sit amet '.repeat(8);

export async function checkQueueBrowser(page, base, screenshot) {
  const problems = [];
  const expect = (ok, what) => { if (!ok) problems.push(what); };
  await setUp(base);

  await waitFor(page, 'the queue listed with 3 ready', (queue) => {
    const row = document.querySelector(`#queue-list tr[data-queue="${queue}"]`);
    return row && row.querySelector('.ready').textContent === '3';
  }, QUEUE);
  const row = await listedRow(page, QUEUE);
  console.log(`listed: ${JSON.stringify(row)}`);
  expect(row.inflight === '0' && row.delayed === '0', 'in flight and delayed counts of 0');
  expect(/^[0-9]+$/.test(row.oldest), `the age of its oldest message in seconds, was "${row.oldest}"`);
  expect(row.target === `${DLQ} (3)`, `its dead-letter queue shown as "${DLQ} (3)"`);
  await waitFor(page, 'the fair queue listed with its fair-queue counts', (queue, shown) => {
    const fairRow = document.querySelector(`#queue-list tr[data-queue="${queue}"]`);
    return fairRow && fairRow.querySelector('.fair').textContent.startsWith(shown);
  }, FAIR, '1 noisy · 2/0/0');
  expect((await listedRow(page, QUEUE)).fair === '', 'no fair-queue counts for a queue without groups');
  await waitFor(page, 'the dead-letter queue listed with its source', (dlq, source) => {
    const dlqRow = document.querySelector(`#queue-list tr[data-queue="${dlq}"]`);
    return dlqRow && dlqRow.querySelector('.sources').textContent === source;
  }, DLQ, QUEUE);

  await page.click(`#queue-list tr[data-queue="${QUEUE}"] button.link`);
  await waitFor(page, 'the opened queue\'s three messages', () => {
    const rows = document.querySelectorAll('#message-list tbody tr');
    return rows.length === 3 && document.querySelector('#message-list').textContent.includes('order 42');
  });
  const bodies = await page.$$eval('#message-list tbody td.body', (cells) => cells.map((c) => c.textContent));
  console.log(`browsed bodies: ${bodies.map((b) => b.slice(0, 40)).join(' | ')}`);
  expect(bodies.some((b) => b.includes('(' + LONG_BODY.length + ' characters)')), 'the long body truncated');
  expect(await page.$eval('#message-list', (t) => t.textContent.includes('tenant (String) = acme')),
    'the attribute tenant shown');
  // open the long body, so the screenshot shows one expanded
  await page.click('#message-list tbody td.body details summary');
  expect((await counts(base, QUEUE)).inflight === 0, 'nothing leased by browsing');
  await page.$eval('#queues', (element) => element.scrollIntoView());
  await (await page.$('#queues')).screenshot({ path: screenshot });
  console.log(`screenshot: ${screenshot}`);

  page.once('dialog', (dialog) => dialog.dismiss());
  await page.click('#queue-detail button[data-action="purge"]');
  await waitFor(page, 'the purge declined', () =>
    document.querySelector('#queue-detail .notice').textContent === 'Purge cancelled.');
  await waitForRefresh(page);
  expect((await counts(base, QUEUE)).ready === 3, 'still 3 ready after the purge was dismissed');
  expect((await listedRow(page, QUEUE)).ready === '3', 'still listed with 3 ready after the dismissal');

  let asked = '';
  page.once('dialog', (dialog) => { asked = dialog.message(); dialog.accept(); });
  await page.click('#queue-detail button[data-action="purge"]');
  await waitFor(page, 'the queue listed with 0 ready after the purge', (queue) => {
    const purged = document.querySelector(`#queue-list tr[data-queue="${queue}"]`);
    return purged && purged.querySelector('.ready').textContent === '0'
      && document.querySelectorAll('#message-list tbody tr').length === 0;
  }, QUEUE);
  console.log(`purge asked: ${asked}`);
  expect(asked.includes(QUEUE), 'the purge dialog names the queue');
  expect((await counts(base, QUEUE)).ready === 0, 'the API counts 0 ready after the purge');
  return problems;
}

async function setUp(base) {
  await call(base, 'PUT', `/queues/${DLQ}`, {});
  await call(base, 'PUT', `/queues/${QUEUE}`,
    { leaseSeconds: 45, retentionSeconds: 3600, maxDeliveries: 3, deadLetterQueue: DLQ });
  await call(base, 'POST', `/queues/${QUEUE}/messages`, 'order 42', 'text/plain');
  await call(base, 'POST', `/queues/${QUEUE}/messages`,
    { body: 'order 43', attributes: { tenant: { type: 'String', value: 'acme' } } });
  await call(base, 'POST', `/queues/${QUEUE}/messages`, LONG_BODY, 'text/plain');
  await call(base, 'PUT', `/queues/${FAIR}`, {});
  await call(base, 'POST', `/queues/${FAIR}/messages/batch`,
    { messages: Array.from({ length: 40 }, (_, i) => ({ body: `backlog ${i}`, group: 'noisy' })) });
  await call(base, 'POST', `/queues/${FAIR}/messages?group=quiet-1`, 'small 1', 'text/plain');
  await call(base, 'POST', `/queues/${FAIR}/messages?group=quiet-2`, 'small 2', 'text/plain');
}

async function call(base, method, path, body, type = 'application/json') {
  const response = await fetch(base + path, {
    method, headers: { 'Content-Type': type }, body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  if (!response.ok) {
    throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  }
  return response;
}

async function counts(base, queue) {
  return (await fetch(`${base}/queues/${queue}`)).json();
}

async function listedRow(page, queue) {
  return page.$eval(`#queue-list tr[data-queue="${queue}"]`, (row) => ({
    ready: row.querySelector('.ready').textContent, inflight: row.querySelector('.inflight').textContent,
    delayed: row.querySelector('.delayed').textContent, target: row.querySelector('.target').textContent,
    oldest: row.querySelector('.oldest').textContent, fair: row.querySelector('.fair').textContent,
  }));
}

// Waits for a refresh of the list that started after now.
async function waitForRefresh(page) {
  const now = await page.$eval('#queues', (element) => Number(element.dataset.refreshes));
  await waitFor(page, 'two refreshes', (seen) =>
    Number(document.querySelector('#queues').dataset.refreshes) >= seen + 2, now);
}

async function waitFor(page, what, predicate, ...args) {
  try {
    await page.waitForFunction(predicate, { timeout: 15000, polling: 200 }, ...args);
  }
  catch (error) {
    throw new Error(`queue browser: no ${what} within 15 s`);
  }
}
