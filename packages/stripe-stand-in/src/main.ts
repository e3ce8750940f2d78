// Runs the stand-in on its own: `pnpm tsx packages/stripe-stand-in/src/main.ts`. Point the product at it
// with STRIPE_API_BASE=http://127.0.0.1:<port> and any sk_test_ key; move its clock with Stripe's
// test-clock calls (POST /v1/test_helpers/test_clocks, then …/<id>/advance with frozen_time).
import { StripeStandIn } from './stand-in.ts';

const port = Number(process.env.STRIPE_STAND_IN_PORT ?? 12111);
const standIn = new StripeStandIn({
  ...(process.env.STRIPE_WEBHOOK_URL ? { webhookUrl: process.env.STRIPE_WEBHOOK_URL } : {}),
  ...(process.env.STRIPE_WEBHOOK_SECRET ? { webhookSecret: process.env.STRIPE_WEBHOOK_SECRET } : {}),
});
const address = await standIn.listen(port);
console.log(`Stripe stand-in on http://${address.host}:${address.port}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void standIn.close().then(() => process.exit(0)));
}
