// Drives the labeling page in Debian's headless Chromium (playwright-core, no browser download):
//   node label_page.mjs <page url> <screenshot.png>
// Labels items with the keyboard (y, n, y), undoes the last one (u), relabels it unsure (d), clicks a button,
// relabels in review (stays in place), double-presses (ignored), skips (s), opens the key list (?), labels a
// page of the grid view (g, Space, Enter), and checks the layout at 1024x640. Prints one JSON line describing what it saw; the GoogleTest
// that runs it (tests/labeling/browser_test.cpp) checks the SQLite store for the matching events.
// Exit codes: 0 done, 1 a check failed, 2 usage, 3 the browser could not start.
import { launchChromium, watchedPage } from './chromium_session.mjs';

const [url, screenshot] = process.argv.slice(2);
if (!url || !screenshot) {
  console.error('usage: node label_page.mjs <page url> <screenshot.png>');
  process.exit(2);
}

const report = { steps: [], requests_outside: [], console_errors: [] };
const { context, close } = await launchChromium({ deviceScaleFactor: 1 });

const origin = new URL(url).origin;
let failed = false;
function check(condition, message) {
  if (!condition) {
    failed = true;
    report.steps.push(`FAILED: ${message}`);
  }
}

try {
  // Self-contained: every request the page makes goes to the labeling server itself.
  const page = await watchedPage(context, origin, report);

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

  const displayed = (item) => page.waitForFunction((id) => document.body.dataset.displayed === id, item,
                                                    { timeout: 15000 });
  await displayed(first.item);
  let s = await step('y', () => page.keyboard.press('y'), 1);
  check(s.index === 1 && s.done === 1, 'y labels the item and advances');
  const second = s.item;
  await displayed(second);
  s = await step('n', () => page.keyboard.press('n'), 2);
  const third = s.item;
  await displayed(third);
  s = await step('y', () => page.keyboard.press('y'), 3);
  check(s.done === 3, 'three items done');
  s = await step('u', () => page.keyboard.press('u'), 4);
  check(s.item === third && s.done === 2, 'u undoes the last decision and goes back to its item');
  await displayed(third);
  s = await step('d', () => page.keyboard.press('d'), 5);
  check(s.done === 3, 'd marks the item unsure and advances');
  const fourth = s.item;
  await displayed(fourth);
  s = await step('click Incorrect', () => page.click('#no'), 6);
  check(s.done === 4, 'the Incorrect button labels too');
  const fifth = s.item;
  s = await step('ArrowLeft', () => page.keyboard.press('ArrowLeft'));
  await page.waitForFunction((item) => document.getElementById('item-id').textContent === item, fourth);
  s = await state();
  check(s.item === fourth && s.stamp.includes('incorrect'), 'ArrowLeft shows the previous item with its label');
  await displayed(fourth);
  await page.screenshot({ path: screenshot.replace(/\.png$/, '') + '-review.png' });
  // Review: relabeling stays on the item instead of jumping to the next unlabeled one.
  s = await step('review y', () => page.keyboard.press('y'), 7);
  check(s.item === fourth && s.stamp.includes('correct'), `a review relabel stays in place (now on ${s.item})`);
  await step('ArrowRight', () => page.keyboard.press('ArrowRight'));
  await displayed(fifth);
  // A double press: the second comes before the next image is displayed and is ignored.
  const ignoredBefore = await page.evaluate(() => Number(document.body.dataset.ignored || 0));
  // Both key events in one task, as two presses a few ms apart arrive: the second cannot find the next image
  // displayed (a playwright press each would be a browser round trip apart, and may legitimately land later).
  await page.evaluate(() => {
    for (let k = 0; k < 2; k++) document.dispatchEvent(new KeyboardEvent('keydown', { key: 'y', bubbles: true }));
  });
  await waitAcked(8);
  await page.waitForTimeout(400);
  s = await state();
  const ignoredAfter = await page.evaluate(() => Number(document.body.dataset.ignored || 0));
  check(s.acked === 8, `a double press saves one decision (acked ${s.acked})`);
  check(ignoredAfter > ignoredBefore, 'the second press is ignored');
  const sixth = s.item;
  await displayed(sixth);
  // Skip: nothing stored, on to the next item, back at the end.
  s = await step('s', () => page.keyboard.press('s'));
  check(s.item !== sixth && s.acked === 8, 'skip stores nothing and moves on');
  report.skipped = sixth;
  // The key list.
  await page.keyboard.press('?');
  const help = await page.evaluate(() => ({
    shown: document.getElementById('help').classList.contains('show'),
    text: document.getElementById('help').textContent,
  }));
  check(help.shown && help.text.includes('skip') && help.text.includes('Enter'), '? shows the key list');
  await page.keyboard.press('Escape');
  check(!(await page.evaluate(() => document.getElementById('help').classList.contains('show'))), 'Esc closes it');
  report.shortcuts = await page.evaluate(() => Object.fromEntries(
    [...document.querySelectorAll('button')].map((b) => [b.id, b.getAttribute('aria-keyshortcuts')])));
  report.final = await state();
  report.items = { first: first.item, second, third, fourth, fifth, sixth };

  // Grid view of the class, by keyboard: tick the first cell, leave the rest, Enter saves the page.
  await page.keyboard.press('g');
  await page.waitForFunction(() => document.body.classList.contains('grid') &&
    [...document.querySelectorAll('#gridview img')].every((img) => img.complete));
  await page.waitForTimeout(100);
  const before = await page.evaluate(() => [...document.querySelectorAll('#gridview .cell')].map((cell) => ({
    id: cell.querySelector('img').alt.replace('candidate ', ''), checked: cell.querySelector('input').checked,
    was: cell.querySelector('.was') ? cell.querySelector('.was').textContent : null })));
  await page.keyboard.press(' ');
  await page.keyboard.press('ArrowRight');
  const gridAckedFrom = (await state()).acked;
  const expectedGrid = before.map((c, k) => ({ id: c.id, label: (k === 0 ? !c.checked : c.checked) ? 'correct' : 'incorrect', was: c.was }))
    .filter((c) => c.label !== c.was);
  const t0 = Date.now();
  await page.keyboard.press('Enter');
  await waitAcked(gridAckedFrom + expectedGrid.length);
  const gridMillis = Date.now() - t0;
  report.grid = { cells: before.length, decisions: expectedGrid, millis: gridMillis };
  await page.screenshot({ path: screenshot.replace(/\.png$/, '') + '-grid.png' });
  await page.keyboard.press('g');

  // 1024x640 with a long class name: nothing cut off, no sideways scrolling, the image stays large.
  await page.setViewportSize({ width: 1024, height: 640 });
  await page.evaluate(() => {
    document.getElementById('class-name').textContent =
      'Greater Swiss Mountain dog, also called Grosser Schweizer Sennenhund, a very long class name indeed';
  });
  await page.waitForTimeout(200);
  report.small = await page.evaluate(() => {
    const out = { scrollWidth: document.documentElement.scrollWidth, innerWidth, innerHeight, cut: [] };
    for (const el of document.querySelectorAll('footer button, aside h1, header .save')) {
      const r = el.getBoundingClientRect();
      if (r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) out.cut.push(el.id || el.className);
    }
    out.imageHeight = document.querySelector('.stage').getBoundingClientRect().height;
    return out;
  });
  check(report.small.scrollWidth <= 1024, `no horizontal overflow at 1024x640 (${report.small.scrollWidth})`);
  check(report.small.cut.length === 0, `nothing cut off at 1024x640: ${report.small.cut}`);
  check(report.small.imageHeight >= 300, `the image area stays large (${report.small.imageHeight} px)`);
  await page.screenshot({ path: screenshot.replace(/\.png$/, '') + '-1024x640.png' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForFunction(() => {
    const img = document.getElementById('image');
    const grid = document.querySelectorAll('#example-grid img');
    return img.complete && [...grid].every((e) => e.complete);
  }, null, { timeout: 15000 });
  await page.screenshot({ path: screenshot });
  check(report.requests_outside.length === 0, 'no request leaves the labeling server');
  check(report.console_errors.length === 0, 'no console errors (CSP violations included)');
} catch (error) {
  failed = true;
  report.error = String(error && error.stack ? error.stack : error);
} finally {
  await close();
}
console.log(JSON.stringify(report));
process.exit(failed ? 1 : 0);
