// The live page's Compare section, in a page live-page-check.mjs has opened: chooses two strategies
// (the first the baseline), the lightest workload and the shortest run the caps allow, starts it,
// waits (bounded) until it is over, and checks that it finished with both strategies ranked, each
// with a verdict, and the command that repeats it; saves a screenshot of the section.
// Returns the problems found (empty: passed).
export async function checkCompare(page, screenshot, strategies = ['concurrent-atomic', 'lane-adaptive'],
  timeoutSeconds = 180) {
  const problems = [];
  await page.waitForSelector('#compare .choices input', { timeout: 10000 });
  for (const strategy of strategies) {
    await page.click(`#compare .choices input[value="${strategy}"]`);
  }
  await page.select('#compare select[name="workload"]', '1-conn');
  for (const name of ['rounds', 'windowSeconds']) {
    await page.$eval(`#compare input[name="${name}"]`, (input) => {
      input.value = input.min;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
  }
  const started = Date.now();
  await page.click('#compare-start');
  try {
    await page.waitForFunction(() => ['finished', 'cancelled', 'failed'].includes(
      document.getElementById('compare').dataset.state), { timeout: timeoutSeconds * 1000, polling: 500 });
  }
  catch (error) {
    problems.push(`the comparison over within ${timeoutSeconds} s`);
  }
  const result = await page.$eval('#compare', (section) => ({
    state: section.dataset.state,
    status: section.querySelector('#compare-status').textContent,
    error: section.querySelector('#compare-error').textContent,
    rows: [...section.querySelectorAll('#compare-ranking tbody tr')].map((row) => ({
      strategy: row.dataset.strategy, verdict: row.dataset.verdict, text: row.textContent,
    })),
    command: section.querySelector('#compare-command').textContent,
  }));
  console.log(`comparison: ${result.state} after ${((Date.now() - started) / 1000).toFixed(0)} s: ${result.status}`);
  result.rows.forEach((row) => console.log(`  ${row.strategy}: ${row.verdict} | ${row.text}`));
  console.log(`  rerun: ${result.command}`);
  if (result.state !== 'finished') {
    problems.push(`the comparison finished (it is ${result.state}${result.error ? ': ' + result.error : ''})`);
  }
  for (const strategy of strategies) {
    const row = result.rows.find((r) => r.strategy === strategy);
    if (!row || !row.verdict) {
      problems.push(`${strategy} ranked with a verdict`);
    }
  }
  if (!result.rows.some((r) => r.verdict === 'baseline' && r.strategy === strategies[0])) {
    problems.push(`${strategies[0]} as the baseline`);
  }
  if (!result.command.includes('/compare') || !result.command.includes('"seed":')) {
    problems.push('the command that repeats the run');
  }
  const section = await page.$('#compare');
  await section.screenshot({ path: screenshot });
  console.log(`screenshot: ${screenshot}`);
  return problems;
}
