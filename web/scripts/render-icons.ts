// Draws the brand mark and renders the installable app's icons from it in Chromium (the one the
// journeys use; no image library needed): `npm run icons -w web`, then commit what it wrote.
// The mark: a heart (caring) on the brand gradient. "any" icons are a rounded tile with clear
// corners; the maskable and Apple icons fill the square (the system cuts its own shape) and keep
// the heart inside the central safe zone.
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { BRAND_GRADIENT, BRAND_HEART_PATH, heartTransform } from '../src/ui/brand-mark-shape';

const publicDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../public');

function mark({ fullBleed }: { fullBleed: boolean }): string {
  // Full-bleed icons are masked to as little as the central 80 %: the heart shrinks to stay clear.
  const heart = `<path d="${BRAND_HEART_PATH}" fill="#fff" transform="${heartTransform(fullBleed ? 0.78 : 1)}"/>`;
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">',
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${BRAND_GRADIENT[0]}"/><stop offset="1" stop-color="${BRAND_GRADIENT[1]}"/></linearGradient></defs>`,
    `<rect width="512" height="512" rx="${fullBleed ? 0 : 112}" fill="url(#g)"/>`,
    heart,
    '</svg>',
  ].join('');
}

const icons: Array<{ file: string; size: number; fullBleed: boolean }> = [
  { file: 'icons/icon-192.png', size: 192, fullBleed: false },
  { file: 'icons/icon-512.png', size: 512, fullBleed: false },
  { file: 'icons/maskable-512.png', size: 512, fullBleed: true },
  { file: 'icons/apple-touch-icon.png', size: 180, fullBleed: true },
];

mkdirSync(path.join(publicDir, 'icons'), { recursive: true });
writeFileSync(path.join(publicDir, 'favicon.svg'), `${mark({ fullBleed: false })}\n`);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox'],
});
try {
  const page = await browser.newPage();
  for (const { file, size, fullBleed } of icons) {
    await page.setViewportSize({ width: size, height: size });
    const svg = `data:image/svg+xml;base64,${Buffer.from(mark({ fullBleed })).toString('base64')}`;
    await page.setContent(
      `<html><body style="margin:0;background:transparent"><img src="${svg}" width="${size}" height="${size}" style="display:block"></body></html>`,
    );
    await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
    writeFileSync(path.join(publicDir, file), await page.screenshot({ omitBackground: true }));
    console.log(`wrote public/${file} (${size}×${size})`);
  }
} finally {
  await browser.close();
}
