// The labeling page of pass 2 (label serve --pass 2) in Debian's headless Chromium (playwright-core):
//   node pass2_page.mjs <page url>
// Opens the page as the labeler the URL names and labels every item it offers with y, each once its image is
// displayed, until the "all done" view. Prints one JSON line: the items shown, in order, the overall counter at
// the start and at the end, the done text, requests that left the server and console errors; the GoogleTest
// that runs it (tests/labeling/browser_test.cpp) checks them against what the labeler judged in pass 1.
// Exit codes: 0 done, 1 a check failed, 2 usage, 3 the browser could not start.
import { launchChromium, watchedPage } from './chromium_session.mjs';

const [url] = process.argv.slice(2);
if (!url) {
  console.error('usage: node pass2_page.mjs <page url>');
  process.exit(2);
}

const report = { shown: [], requests_outside: [], console_errors: [] };
const { context, close } = await launchChromium();

const origin = new URL(url).origin;
let failed = false;
try {
  const page = await watchedPage(context, origin, report);
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  const overall = () => page.evaluate(() => document.getElementById('overall-text').textContent);
  report.overall_start = await overall();
  // At most one decision per item the page could hold: a page that kept offering items would stop here.
  for (let k = 0; k < 100; k++) {
    const at = await page.evaluate(() => ({
      finished: document.body.classList.contains('finished'),
      total: Number(document.getElementById('overall-text').textContent.split('/')[1]),
      item: document.getElementById('item-id').textContent,
    }));
    if (at.finished || !(at.total > 0)) break;
    await page.waitForFunction((id) => document.body.dataset.displayed === id, at.item, { timeout: 15000 });
    report.shown.push(at.item);
    await page.keyboard.press('y');
    await page.waitForFunction((n) => Number(document.body.dataset.acked || 0) >= n, k + 1, { timeout: 15000 });
  }
  report.overall_end = await overall();
  report.done_text = await page.evaluate(() => document.getElementById('done-text').textContent);
  if (report.console_errors.length > 0 || report.requests_outside.length > 0) failed = true;
} catch (error) {
  failed = true;
  report.error = String(error && error.stack ? error.stack : error);
} finally {
  await close();
}
console.log(JSON.stringify(report));
process.exit(failed ? 1 : 0);
