import { routePaths } from '../route-paths.ts';

/** The demo shop on the product the visitor is using: the address the tour registers. */
export function demoShopAddress(): string {
  return new URL(routePaths.mockShop, window.location.origin).href;
}

/**
 * Puts the demo shop's address into the wizard's URL field when it is empty. The field belongs to
 * the wizard's own state, so the value goes in the way typing would: through the input's native
 * setter and an input event, which React reads as a change.
 */
export function fillDemoShopAddress(target: Element): void {
  const input = target instanceof HTMLInputElement ? target : target.querySelector('input');
  if (input?.value !== '') return;
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, demoShopAddress());
  input.dispatchEvent(new Event('input', { bubbles: true }));
}
