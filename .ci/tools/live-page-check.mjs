// Drives the live page in headless Chromium (Debian's, through puppeteer-core) and fails unless
// every chart has received data and the page names the strategy; saves a screenshot. With
// BROWSER.png, then checks the queue browser below the charts (queue-browser-check.mjs) and saves
// its screenshot there. With COMPARE.png, then starts a comparison of two strategies from the page's
// Compare section and waits for its ranking (compare-check.mjs), and saves its screenshot there.
// Usage: node live-page-check.mjs PAGE_URL STRATEGY SCREENSHOT.png [MIN_SAMPLES] [TIMEOUT_SECONDS] [BROWSER.png] [COMPARE.png]
import puppeteer from 'puppeteer-core';
import { checkQueueBrowser } from './queue-browser-check.mjs';
import { checkCompare } from './compare-check.mjs';

const [url, strategy, screenshot, minSamples = '3', timeoutSeconds = '60', browserShot, compareShot] = process.argv.slice(2);
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-dev-shm-usage'],
  defaultViewport: { width: 1400, height: 1000 },
});
let failed = false;
try {
  const page = await browser.newPage();
  page.on('pageerror', (error) => { console.error('page error:', error.message); failed = true; });
  page.on('console', (message) => { if (message.type() === 'error') console.error('console:', message.text()); });
  // names what a 'Failed to load resource' above was (a queue emptied and removed under the load
  // answers 404 to the browser's GET of it, which the page expects)
  page.on('response', (response) => {
    if (response.status() >= 400) console.error(`answered ${response.status()}: ${response.url()}`);
  });
  await page.goto(url, { waitUntil: 'load' });
  const counts = () => page.$$eval('.chart', (charts) => charts.map((chart) => ({
    id: chart.id, samples: Number(chart.dataset.samples), measured: chart.dataset.measured,
  })));
  try {
    await page.waitForFunction((min) => {
      const charts = [...document.querySelectorAll('.chart')];
      return charts.length > 0 && charts.every((chart) => Number(chart.dataset.samples) >= min);
    }, { timeout: Number(timeoutSeconds) * 1000, polling: 500 }, Number(minSamples));
  }
  catch (error) {
    console.error(`not every chart received ${minSamples} samples within ${timeoutSeconds} s`);
    failed = true;
  }
  for (const chart of await counts()) {
    console.log(`${chart.id}: ${chart.samples} samples${chart.measured === 'true' ? '' : ' (not measured)'}`);
  }
  const strategies = await page.$$eval('#instances li', (items) => items.map((item) => item.dataset.strategy));
  const header = await page.$eval('#instances', (element) => element.textContent);
  console.log(`instances: ${header}`);
  if (!strategies.includes(strategy) || !header.includes(strategy)) {
    console.error(`the page does not name the strategy ${strategy}`);
    failed = true;
  }
  await page.screenshot({ path: screenshot, fullPage: true });
  console.log(`screenshot: ${screenshot}`);
  if (browserShot) {
    const problems = await checkQueueBrowser(page, new URL(url).origin, browserShot);
    problems.forEach((problem) => console.error(`queue browser: expected ${problem}`));
    failed = failed || problems.length > 0;
  }
  if (compareShot) {
    const problems = await checkCompare(page, compareShot);
    problems.forEach((problem) => console.error(`compare: expected ${problem}`));
    failed = failed || problems.length > 0;
  }
}
catch (error) {
  console.error(error.message);
  failed = true;
}
finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
