// The privacy page (/privacy, public): what is kept, where, for how long, who sees it, consent, and how to
// take it out or delete it, in plain words. The periods come from this server's settings (GET /api/privacy).
import { Link } from 'wouter';
import { usePrivacySettings } from '@client/features/users/api/use-privacy-settings';
import { InfoPageLayout } from '../components/info-page-layout';

const linkClass = 'font-medium text-primary underline-offset-4 hover:underline';

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

export default function PrivacyPage() {
  const privacy = usePrivacySettings();
  const days = privacy.data ? plural(privacy.data.rawClipRetentionDays, 'day') : '…';
  const hours = privacy.data ? plural(privacy.data.exportLifetimeHours, 'hour') : '…';

  return (
    <InfoPageLayout
      title="Privacy"
      lead="Faces and voices, above all children's, are biometric data. FamilyStar keeps them only to make your videos, shows them only to you, and deletes them for real when you ask."
    >
      <section>
        <h2>What we keep</h2>
        <ul>
          <li>Your account: username, e-mail address, display name and a hash of your password (never the password itself).</li>
          <li>The people you add: name, relationship, and the consent you gave for them.</li>
          <li>Face photos you take or upload, and face clips from face training or uploads.</li>
          <li>Voice recordings, including those from voice training.</li>
          <li>
            Fingerprints made from them: a face fingerprint for each face photo and a voice fingerprint for each recording
            (with its expression, pitch and loudness). They are what lets us put a face and a voice into a video.
          </li>
          <li>The videos you make.</li>
          <li>A log of consents, downloads and deletions. It holds no photos, sounds or fingerprints.</li>
        </ul>
      </section>
      <section>
        <h2>Where it is kept</h2>
        <p>
          On this server: files on its disk, everything else in its database. Nothing is sent to other companies or AI
          services. The one exception is paying: your card details go straight to Stripe, our payment provider, and
          never reach us.
        </p>
      </section>
      <section>
        <h2>For how long</h2>
        <ul>
          <li>Raw face clips: deleted {days} after their faces were taken out. The faces taken from them stay.</li>
          <li>Everything else (people, face photos, voice recordings, fingerprints, videos): until you delete it.</li>
          <li>The zip from &lsquo;Download my data&rsquo;: {hours}, then it is deleted.</li>
        </ul>
      </section>
      <section>
        <h2>Who can see it</h2>
        <p>
          Only you. Photos, clips, recordings and videos are sent only to your signed-in account. The admins of this
          server manage accounts and video templates; they cannot see your family&apos;s faces and voices. Nothing is
          public, sold, or used to train anyone else&apos;s models.
        </p>
      </section>
      <section>
        <h2>Consent</h2>
        <p>
          Before we keep anyone&apos;s face or voice, we ask you, once per person: are you that person, their parent or
          guardian, or an adult who gave you permission? We record who said yes, when, and the version of the words you
          agreed to. You can withdraw it at any time on the{' '}
          <Link href="/people" className={linkClass}>
            People
          </Link>{' '}
          page: that deletes the person&apos;s face photos, clips, voice recordings, their fingerprints and every video
          made with them. Their name stays until you delete the person.
        </p>
      </section>
      <section>
        <h2>Take it with you</h2>
        <p>
          <Link href="/profile#data" className={linkClass}>
            Profile → Your data → Download my data
          </Link>{' '}
          prepares one zip with all of it: your details as JSON, every photo, clip, recording and video, the fingerprints
          (labelled as such), and a README that says what each file is.
        </p>
      </section>
      <section>
        <h2>Delete it</h2>
        <ul>
          <li>Withdraw a person&apos;s consent: their faces, voices and the videos made with them go; the name stays.</li>
          <li>Delete a person: they go with their face photos, clips and voice recordings. Videos already made with them stay until you delete them (withdrawing consent first deletes those too).</li>
          <li>Delete a single face photo, recording or video on its page.</li>
          <li>
            Delete your account (
            <Link href="/profile#data" className={linkClass}>
              Profile → Your data
            </Link>
            ): everything of yours goes, files, data exports and unfinished videos included. Nothing is left on disk.
          </li>
        </ul>
      </section>
      <section>
        <h2>Cookies</h2>
        <p>
          One cookie keeps you signed in. Another tells our sign-in protection that this browser has signed in before, so that
          strangers guessing your password cannot lock you out. There are no advertising or tracking cookies.
        </p>
      </section>
    </InfoPageLayout>
  );
}
