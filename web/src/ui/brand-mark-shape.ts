// The REME mark's drawing, shared by the header's BrandMark and the icon script
// (scripts/render-icons.ts, which also writes the favicon): a heart on the brand gradient.
export const BRAND_HEART_PATH =
  'M256 380C166 318 120 268 120 208c0-44 34-78 76-78 28 0 48 14 60 36 12-22 32-36 60-36 42 0 76 34 76 78 0 60-46 110-136 172Z';
export const BRAND_GRADIENT = ['#7a5cf0', '#1f8f8a'] as const;
/** Nudged down a little: the heart's point is thin, so its optical centre sits below its box's. */
export const heartTransform = (scale: number) =>
  `translate(256 266) scale(${scale}) translate(-256 -256)`;
