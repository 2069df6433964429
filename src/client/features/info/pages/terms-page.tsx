import { Link } from 'wouter';
import { InfoPageLayout } from '../components/info-page-layout';

export default function TermsPage() {
  return (
    <InfoPageLayout title="Terms of Use" lead="The short version: use FamilyStar for your family, with people who agreed to it.">
      <section>
        <h2>Your account</h2>
        <p>
          You need an account to create videos. Keep your password to yourself; you are responsible for what happens
          in your account. You can change your details on your profile at any time.
        </p>
      </section>
      <section>
        <h2>Faces and voices of real people</h2>
        <p>Only record or upload a person&apos;s face or voice when you have the right to:</p>
        <ul>
          <li>yourself, or an adult who has agreed to take part;</li>
          <li>a child only if you are their parent or legal guardian.</li>
        </ul>
        <p>
          Do not use FamilyStar to impersonate anyone, to deceive, or to make content that is hateful, sexual or
          harmful. Personalised videos are for private family viewing.
        </p>
      </section>
      <section>
        <h2>Templates and payments</h2>
        <p>
          Free templates can be used on every plan. Premium templates are bought one by one or included with a paid
          plan; a purchase is only recorded once the payment provider confirms it. Plans renew monthly until you
          cancel.
        </p>
      </section>
      <section>
        <h2>Ending your account</h2>
        <p>
          You can ask us to delete your account at any time; everything in it is deleted with it, as described in
          the <Link href="/privacy" className="font-medium text-primary underline-offset-4 hover:underline">Privacy</Link>{' '}
          page. We may close accounts that break these terms.
        </p>
      </section>
      <section>
        <h2>No guarantees</h2>
        <p>
          We work hard to keep FamilyStar running and your videos looking good, but the service is provided as it is,
          and processing can occasionally fail. Questions? See{' '}
          <Link href="/contact" className="font-medium text-primary underline-offset-4 hover:underline">Contact</Link>.
        </p>
      </section>
    </InfoPageLayout>
  );
}
