// Stripe records a purchase by webhook, which may arrive a moment after the browser comes back from the
// payment. The Checkout page notes which template was just paid, so the Create page can wait for the
// confirmation instead of offering the purchase again.
const KEY = 'familystar.paidTemplate';
/** Longer than any webhook should take; after it the Create page offers the purchase again. */
export const PAYMENT_CONFIRMATION_WAIT_MS = 2 * 60_000;

export function rememberPayment(templateId: number): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ templateId, at: Date.now() }));
  } catch {
    // Private modes may refuse storage: the Create page then shows the purchase until the page is reloaded.
  }
}

/** True while a payment for this template was sent from this tab in the last two minutes. */
export function awaitingPaymentConfirmation(templateId: number, now = Date.now()): boolean {
  try {
    const saved = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as { templateId?: unknown; at?: unknown } | null;
    return saved?.templateId === templateId && typeof saved.at === 'number' && now - saved.at < PAYMENT_CONFIRMATION_WAIT_MS;
  } catch {
    return false;
  }
}

export function forgetPayment(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing kept, nothing to forget
  }
}
