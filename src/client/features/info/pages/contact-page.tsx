import { Mail } from 'lucide-react';
import { Card, CardContent } from '@client/components/ui/card';
import { InfoPageLayout } from '../components/info-page-layout';

const SUPPORT_EMAIL = 'support@familystar.example';

export default function ContactPage() {
  return (
    <InfoPageLayout title="Contact" lead="A question, a problem with a video, or a request about your data? Write to us.">
      <Card>
        <CardContent className="flex flex-col gap-4 p-6 sm:flex-row sm:items-center">
          <span className="flex size-12 shrink-0 items-center justify-center rounded-full bg-secondary text-primary">
            <Mail className="size-6" aria-hidden="true" />
          </span>
          <div>
            <p className="font-semibold">E-mail</p>
            <a href={`mailto:${SUPPORT_EMAIL}`} className="text-lg font-medium text-primary underline-offset-4 hover:underline">
              {SUPPORT_EMAIL}
            </a>
            <p className="text-sm text-muted-foreground">We usually answer within two working days.</p>
          </div>
        </CardContent>
      </Card>
      <section>
        <h2>What to include</h2>
        <ul>
          <li>Your username (never your password).</li>
          <li>What you were doing and what happened, with the exact error message if one was shown.</li>
          <li>For a video problem, the video&apos;s title and the date you created it.</li>
          <li>Your browser and device, e.g. Chrome on an Android phone.</li>
        </ul>
      </section>
      <section>
        <h2>Data requests</h2>
        <p>
          To delete your account, or to ask what we hold about you, write from the e-mail address on your account so
          we can confirm it is you.
        </p>
      </section>
    </InfoPageLayout>
  );
}
