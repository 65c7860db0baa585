// Files both ways in a real browser: a PDF dropped on a session's view, an image pasted into its
// composer and a file picked with the attach button reach the agent as the same prompt lines
// Feishu's files give (paths that exist, readable without a prompt); a file the agent sends shows
// as a card (an image inline) whose download has the bytes sent. At 1280 and 390 px.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, SESSION_ID, startWebHarness, type WebHarness } from './web-harness.js';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const NOTES = Buffer.from('第一行\nline two\n');

/** A page expression: a DataTransfer holding one file (the browser's own File, as a drop or a paste carries it). */
const transferOf = (name: string, bytes: Buffer, type: string): string =>
  `(() => { const dt = new DataTransfer(); const raw = Uint8Array.from(atob(${JSON.stringify(bytes.toString('base64'))}), (c) => c.charCodeAt(0)); dt.items.add(new File([raw], ${JSON.stringify(name)}, { type: ${JSON.stringify(type)} })); return dt; })()`;

describe.skipIf(!HAS_CHROMIUM)('web console: files both ways (chromium)', () => {
  let h: WebHarness;
  let chart: string;

  beforeAll(async () => {
    h = await startWebHarness();
    const cwd = path.join(h.bh.home, 'Git', 'alpha');
    fs.mkdirSync(cwd, { recursive: true });
    chart = path.join(cwd, 'chart.png');
    fs.writeFileSync(chart, PNG);
    // The agent's side: asked for the chart, it calls send_file with a caption.
    h.bh.engine.onSend = async (req, opts) => {
      if (req.prompt.includes('send me the chart')) await opts.files?.sendFile({ path: chart, caption: 'the chart' });
    };
  }, 30_000);
  afterAll(() => h?.close());

  for (const phone of [false, true]) {
    const size = phone ? 390 : 1280;
    it(`takes dropped, pasted and picked files, and offers the agent's file as a download (${size} px)`, async () => {
      const { page } = await h.page({ phone });
      await page.goto(`${new URL(h.web.url).origin}/#/sessions/${SESSION_ID}`);
      await expect.poll(() => page.textContent('#s-detail-title')).toContain('梳理 README');
      await page.locator('#b-form .attach-btn').waitFor();

      // Drop a PDF on the session's view, paste an image into the composer, pick a text file.
      const pdf = await page.evaluateHandle(transferOf(`report-${size}.pdf`, PDF, 'application/pdf'));
      await page.dispatchEvent('#s-detail', 'dragenter', { dataTransfer: pdf });
      expect(await page.getAttribute('#s-detail', 'data-dropping')).toBe('松开即可添加附件');
      await page.dispatchEvent('#s-detail', 'drop', { dataTransfer: pdf });
      expect(await page.getAttribute('#s-detail', 'data-dropping')).toBeNull();
      await page.evaluate(
        `document.getElementById('b-input').dispatchEvent(new ClipboardEvent('paste', { clipboardData: ${transferOf('image.png', PNG, 'image/png')}, bubbles: true, cancelable: true }))`,
      );
      await page.setInputFiles('#b-form .attach-input', { name: 'notes.txt', mimeType: 'text/plain', buffer: NOTES });
      const chips = page.locator('#b-form .attach-chip');
      await expect.poll(() => chips.count()).toBe(3);
      await page.locator('#b-form .attach-chip[data-state="done"]').nth(2).waitFor();
      expect(await chips.allTextContents()).toEqual([
        expect.stringContaining(`report-${size}.pdf`),
        expect.stringContaining('image.png'),
        expect.stringContaining('notes.txt'),
      ]);
      await h.shot(page, `files-chips-${size}`);

      // A refused upload says why on its own chip and is left out of the message; × removes it.
      h.bh.config.files.enabled = false;
      await page.setInputFiles('#b-form .attach-input', { name: 'refused.bin', mimeType: 'x/y', buffer: NOTES });
      const refused = page.locator('#b-form .attach-chip[data-state="error"]');
      await refused.waitFor();
      h.bh.config.files.enabled = true;
      expect(await refused.locator('[role="alert"]').textContent()).toBe(
        '上传失败：文件功能已关闭（config.toml 中 files.enabled = false）。',
      );
      await h.shot(page, `files-chip-error-${size}`);
      await refused.locator('.attach-remove').click();
      await expect.poll(() => chips.count()).toBe(3);
      // Past files.max_size_bytes the page refuses the file before sending a byte.
      const huge = await page.evaluateHandle(
        "(() => { const dt = new DataTransfer(); dt.items.add(new File([new Uint8Array(31 * 1024 * 1024)], 'huge.bin')); return dt; })()",
      );
      await page.dispatchEvent('#s-detail', 'drop', { dataTransfer: huge });
      expect(await refused.locator('[role="alert"]').textContent()).toBe('上传失败：文件过大（上限 30 MB）');
      await refused.locator('.attach-remove').click();
      await expect.poll(() => chips.count()).toBe(3);

      // Send: the agent gets the image line and one [file: …] line per file, each path a real file.
      const text = `read these at ${size}`;
      await page.fill('#b-input', text);
      await page.press('#b-input', 'Enter');
      await page.locator('#s-live .card-complete', { hasText: text }).waitFor();
      await expect.poll(() => chips.count()).toBe(0);
      const req = h.bh.engine.requests.find((r) => r.prompt.includes(text));
      const prompt = req?.prompt ?? '';
      const image = /^\[用户发送了第1张图片: (.+)\]$/m.exec(prompt)?.[1] as string;
      const pdfPath = new RegExp(`^\\[file: (.+) \\(report-${size}\\.pdf, \\d+ B, application/pdf\\)\\]$`, 'm').exec(
        prompt,
      )?.[1] as string;
      const notesPath = /^\[file: (.+) \(notes\.txt, \d+ B, text\/plain; charset=utf-8\)\]$/m.exec(
        prompt,
      )?.[1] as string;
      expect(fs.readFileSync(image).equals(PNG)).toBe(true);
      expect(fs.readFileSync(pdfPath).equals(PDF)).toBe(true);
      expect(fs.readFileSync(notesPath).equals(NOTES)).toBe(true);
      expect(prompt.trim().endsWith(text)).toBe(true);
      // The folders are handed to the agent as readable (no permission prompt for them).
      expect(req?.imagePaths).toEqual([image]);
      expect(req?.filePaths).toEqual([pdfPath, notesPath]);
      expect(await page.locator('#s-live .msg-user .msg-file').allTextContents()).toEqual(
        expect.arrayContaining([`📎 report-${size}.pdf`, '📎 image.png', '📎 notes.txt']),
      );

      // The agent sends a file: a card with the image inline and a download of the same bytes.
      const cards = page.locator('#s-live .file-card');
      const before = await cards.count(); // the other width's run left its card in this session
      await page.fill('#b-input', `send me the chart (${size})`);
      await page.press('#b-input', 'Enter');
      await expect.poll(() => cards.count()).toBe(before + 1);
      const card = cards.last();
      expect(await card.textContent()).toContain('chart.png');
      expect(await card.textContent()).toContain('the chart');
      const lastImage = "[...document.querySelectorAll('#s-live .file-card img.file-preview')].at(-1)";
      await expect.poll(() => page.evaluate(`${lastImage}?.naturalWidth`)).toBe(1);
      fs.writeFileSync(chart, 'edited after sending'); // what was sent stays what was sent
      const [download] = await Promise.all([page.waitForEvent('download'), card.locator('.file-download').click()]);
      expect(download.suggestedFilename()).toBe('chart.png');
      expect(fs.readFileSync(await download.path()).equals(PNG)).toBe(true);
      fs.writeFileSync(chart, PNG);
      await page.evaluate(`${lastImage}.closest('.msg').scrollIntoView({ block: 'center' })`);
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await h.shot(page, `files-sent-card-${size}`);
    }, 60_000);
  }
});
