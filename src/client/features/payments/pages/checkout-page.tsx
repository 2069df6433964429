import { PlaceholderPage } from '@client/components/placeholder-page';

export default function CheckoutPage(_props: { templateId: string }) {
  return <PlaceholderPage title="Checkout" />;
}
