import { useEffect, useRef, useState } from 'react';

/**
 * After a submit settles, moves focus to the first invalid field, else to the form's message,
 * so keyboard and screen-reader users land on what changed.
 */
export function useFocusAfterSubmit<Element extends HTMLElement>() {
  const container = useRef<Element>(null);
  const [request, setRequest] = useState(0);
  useEffect(() => {
    if (request === 0) return;
    const target = container.current?.querySelector<HTMLElement>(
      '[aria-invalid="true"], [data-form-message]',
    );
    target?.focus();
  }, [request]);
  return { container, focusResult: () => setRequest((count) => count + 1) };
}
