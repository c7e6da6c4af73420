// Marks the document while the member navigates by keyboard, so focus moved by code (sonner hands
// focus back when Tab leaves a toast, without :focus-visible) still shows the focus ring.
export function trackKeyboardFocus(): void {
  const root = document.documentElement;
  window.addEventListener(
    'keydown',
    (event) => {
      if (event.key === 'Tab') root.dataset.keyboard = 'true';
    },
    true,
  );
  window.addEventListener('pointerdown', () => delete root.dataset.keyboard, true);
}
