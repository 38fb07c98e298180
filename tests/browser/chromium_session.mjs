// Debian's headless Chromium for the labeling page's browser scripts (label_page.mjs, pass2_page.mjs), one way:
// a fresh profile folder, the flags that keep it off the network and quiet, and a watch on the page that records
// every request leaving the labeling server and every console or page error into the script's report.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Starts Chromium with a fresh profile; on failure prints why and exits 3 (the scripts' "browser could not start").
// `options` adds to the launch options (e.g. deviceScaleFactor). Returns { context, close }.
export async function launchChromium(options = {}) {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'evalsuite-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
             '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1280, height: 800 },
      timeout: 60000,
      ...options,
    });
  } catch (error) {
    console.error(`cannot start /usr/bin/chromium: ${error.message}`);
    fs.rmSync(userDataDir, { recursive: true, force: true });
    process.exit(3);
  }
  const close = async () => {
    await context.close().catch(() => {});
    fs.rmSync(userDataDir, { recursive: true, force: true });
  };
  return { context, close };
}

// The context's page, watched: the page is self-contained, so every request it makes must go to `origin` (the
// labeling server) or be a data: URL; others go to report.requests_outside, console errors and uncaught page
// errors to report.console_errors.
export async function watchedPage(context, origin, report) {
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('request', (request) => {
    if (!request.url().startsWith(origin) && !request.url().startsWith('data:')) {
      report.requests_outside.push(request.url());
    }
  });
  page.on('console', (message) => {
    if (message.type() === 'error') report.console_errors.push(message.text());
  });
  page.on('pageerror', (error) => report.console_errors.push(`pageerror: ${error.message}`));
  return page;
}
