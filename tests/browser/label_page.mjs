// Drives the labeling page in Debian's headless Chromium (playwright-core, no browser download):
//   node label_page.mjs <page url> <screenshot.png>
// Labels items with the keyboard (y, n, y), undoes the last one (u), relabels it (s), clicks a button,
// moves with the arrows, and saves a screenshot. Prints one JSON line describing what it saw; the GoogleTest
// that runs it (tests/labeling/browser_test.cpp) checks the SQLite store for the matching events.
// Exit codes: 0 done, 1 a check failed, 2 usage, 3 the browser could not start.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [url, screenshot] = process.argv.slice(2);
if (!url || !screenshot) {
  console.error('usage: node label_page.mjs <page url> <screenshot.png>');
  process.exit(2);
}

const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'evalsuite-chromium-'));
const report = { steps: [], requests_outside: [], console_errors: [] };
let context;
try {
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    timeout: 60000,
  });
} catch (error) {
  console.error(`cannot start /usr/bin/chromium: ${error.message}`);
  fs.rmSync(userDataDir, { recursive: true, force: true });
  process.exit(3);
}

const origin = new URL(url).origin;
let failed = false;
function check(condition, message) {
  if (!condition) {
    failed = true;
    report.steps.push(`FAILED: ${message}`);
  }
}

try {
  const page = context.pages()[0] ?? (await context.newPage());
  // Self-contained: every request the page makes goes to the labeling server itself.
  page.on('request', (request) => {
    if (!request.url().startsWith(origin) && !request.url().startsWith('data:')) {
      report.requests_outside.push(request.url());
    }
  });
  page.on('console', (message) => {
    if (message.type() === 'error') report.console_errors.push(message.text());
  });
  page.on('pageerror', (error) => report.console_errors.push(`pageerror: ${error.message}`));

  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  const state = async () => page.evaluate(() => ({
    index: Number(document.body.dataset.index),
    acked: Number(document.body.dataset.acked || 0),
    done: Number(document.body.dataset.done),
    item: document.getElementById('item-id').textContent,
    className: document.getElementById('class-name').textContent,
    overall: document.getElementById('overall-text').textContent,
    inClass: document.getElementById('class-text').textContent,
    stamp: document.getElementById('stamp').textContent,
  }));
  const waitAcked = (n) => page.waitForFunction((k) => Number(document.body.dataset.acked || 0) >= k, n,
                                                { timeout: 15000 });
  const step = async (name, action, acked) => {
    await action();
    if (acked !== undefined) await waitAcked(acked);
    const s = await state();
    report.steps.push({ step: name, ...s });
    return s;
  };

  const first = await step('loaded', async () => {});
  report.first_item = first.item;
  check(first.index === 0 && first.done === 0, 'a new labeler starts at the first item with nothing done');
  await page.waitForFunction(() => {
    const img = document.getElementById('image');
    return img.complete && img.naturalWidth > 0;
  }, null, { timeout: 15000 });

  const labeled = [];
  let s = await step('y', () => page.keyboard.press('y'), 1);
  labeled.push(first.item);
  check(s.index === 1 && s.done === 1, 'y labels the item and advances');
  const second = s.item;
  s = await step('n', () => page.keyboard.press('n'), 2);
  labeled.push(second);
  const third = s.item;
  s = await step('y', () => page.keyboard.press('y'), 3);
  labeled.push(third);
  check(s.done === 3, 'three items done');
  s = await step('u', () => page.keyboard.press('u'), 4);
  check(s.item === third && s.done === 2, 'u undoes the last decision and goes back to its item');
  s = await step('s', () => page.keyboard.press('s'), 5);
  check(s.done === 3, 's marks the item unsure and advances');
  const fourth = s.item;
  s = await step('click Incorrect', () => page.click('#no'), 6);
  check(s.done === 4, 'the Incorrect button labels too');
  s = await step('ArrowLeft', () => page.keyboard.press('ArrowLeft'));
  await page.waitForFunction((item) => document.getElementById('item-id').textContent === item, fourth);
  s = await state();
  check(s.item === fourth && s.stamp.includes('incorrect'), 'ArrowLeft shows the previous item with its label');
  await page.waitForFunction(() => document.getElementById('image').complete);
  await page.screenshot({ path: screenshot.replace(/\.png$/, '') + '-review.png' });
  await step('ArrowRight', () => page.keyboard.press('ArrowRight'));
  await page.waitForFunction(() => {
    const img = document.getElementById('image');
    const grid = document.querySelectorAll('#example-grid img');
    return img.complete && img.naturalWidth > 0 && [...grid].every((e) => e.complete);
  }, null, { timeout: 15000 });
  report.final = await state();
  report.items = { first: first.item, second, third, fourth };
  await page.screenshot({ path: screenshot });
  check(report.requests_outside.length === 0, 'no request leaves the labeling server');
  check(report.console_errors.length === 0, 'no console errors (CSP violations included)');
} catch (error) {
  failed = true;
  report.error = String(error && error.stack ? error.stack : error);
} finally {
  await context.close().catch(() => {});
  fs.rmSync(userDataDir, { recursive: true, force: true });
}
console.log(JSON.stringify(report));
process.exit(failed ? 1 : 0);
