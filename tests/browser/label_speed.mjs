// Sustained decisions per second the labeling page and server allow, in Debian's headless Chromium:
//   node label_speed.mjs <page url> [decisions]
// One at a time: y as soon as each image is displayed (the page ignores earlier presses), N decisions.
// Grid: g, then for each page of 48 the images load, every other cell is ticked by keyboard, Enter saves.
// Prints one JSON line. Not a test: a measurement (the labeling speed a human cannot exceed on this page).
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [url, count = '100'] = process.argv.slice(2);
const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'evalsuite-chromium-'));
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: '/usr/bin/chromium', headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  viewport: { width: 1280, height: 800 },
});
const result = {};
try {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  const acked = () => page.evaluate(() => Number(document.body.dataset.acked || 0));
  const n = Number(count);
  let start = Date.now();
  for (let k = 0; k < n; k++) {
    await page.waitForFunction((k2) => document.body.dataset.displayed &&
      Number(document.body.dataset.acked || 0) >= k2, k, { timeout: 15000, polling: 'raf' });
    await page.keyboard.press('y');
  }
  await page.waitForFunction((k2) => Number(document.body.dataset.acked || 0) >= k2, n, { timeout: 15000 });
  const single = (Date.now() - start) / 1000;
  result.single = { decisions: n, seconds: single, per_second: n / single };
  await page.keyboard.press('g');
  let from = await acked();
  start = Date.now();
  let decided = 0;
  for (let p = 0; p < 4; p++) {
    await page.waitForFunction(() => document.body.classList.contains('grid') &&
      [...document.querySelectorAll('#gridview img')].every((img) => img.complete), null, { timeout: 30000 });
    const cells = await page.evaluate(() => document.querySelectorAll('#gridview .cell').length);
    for (let c = 0; c < cells; c++) {
      if (c % 2 === 0) await page.keyboard.press(' ');
      await page.keyboard.press('ArrowRight');
    }
    const pending = await page.evaluate(() => [...document.querySelectorAll('#gridview .cell')].filter((cell) => {
      const was = cell.querySelector('.was');
      const want = cell.querySelector('input').checked ? 'correct' : 'incorrect';
      return !was || was.textContent !== want;
    }).length);
    await page.keyboard.press('Enter');
    await page.waitForFunction((k2) => Number(document.body.dataset.acked || 0) >= k2, from + pending,
                               { timeout: 30000 });
    from += pending;
    decided += pending;
  }
  const grid = (Date.now() - start) / 1000;
  result.grid = { decisions: decided, seconds: grid, per_second: decided / grid };
} finally {
  await context.close().catch(() => {});
  fs.rmSync(userDataDir, { recursive: true, force: true });
}
console.log(JSON.stringify(result));
