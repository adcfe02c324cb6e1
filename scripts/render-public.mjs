import { chromium } from '@playwright/test';
import { readFileSync } from 'node:fs';
// Renders public/icon-192.png, icon-512.png and preview.png (1200×630, the Open Graph card) from public/icon.svg
// with the system Chromium; run `node scripts/render-public.mjs` after changing the icon.
const svg = readFileSync('public/icon.svg', 'utf8');
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
for (const size of [192, 512]) {
  const p = await b.newPage({ viewport: { width: size, height: size } });
  await p.setContent(
    `<style>html,body{margin:0;background:transparent}</style>${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}`,
  );
  await p.screenshot({ path: `public/icon-${size}.png`, omitBackground: true });
}
const p = await b.newPage({ viewport: { width: 1200, height: 630 } });
const bar = (label, v, color) =>
  `<div style="display:flex;flex-direction:column;gap:6px"><span style="font-size:22px;color:#94a3b8">${label}</span>` +
  `<span style="font-size:40px;font-weight:700;color:${color}">${v}</span></div>`;
await p.setContent(`<body style="margin:0;width:1200px;height:630px;background:#0f172a;
  font-family:system-ui,sans-serif;color:#e2e8f0;display:flex;flex-direction:column;padding:64px;box-sizing:border-box;gap:36px">
<div style="display:flex;align-items:center;gap:28px">${svg.replace('<svg ', '<svg width="112" height="112" ')}
<div><div style="font-size:60px;font-weight:800">LLM training planner</div>
<div style="font-size:28px;color:#94a3b8;margin-top:8px">
Does it fit, how fast, how long, how much? Memory per GPU, step time, MFU, cost, best layout.</div></div></div>
<div style="background:#1e293b;border-radius:20px;padding:32px 40px;display:flex;justify-content:space-between;align-items:center">
<div style="font-size:34px;font-weight:700;color:#4ade80">✓ Fits · 12.4 GiB to spare</div>
${bar('Memory / GPU', '67.6 GiB', '#e2e8f0')}${bar('Step time', '4.1 s', '#e2e8f0')}${bar('MFU', '41 %', '#e2e8f0')}</div>
<div style="font-size:24px;color:#64748b">Runs in your browser · nothing leaves the page · static files, host it anywhere</div></body>`);
await p.screenshot({ path: 'public/preview.png' });
await b.close();
