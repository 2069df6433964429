import { Link } from 'wouter';
import { InfoPageLayout } from '../components/info-page-layout';

export default function PrivacyPage() {
  return (
    <InfoPageLayout
      title="Privacy"
      lead="Faces and voices, above all children's, are biometric data. They are private by default, never public, and deletable for real."
    >
      <section>
        <h2>What we store</h2>
        <ul>
          <li>Your account: username, e-mail address, display name and a hash of your password (never the password).</li>
          <li>The people you add: name and relationship.</li>
          <li>Face images you capture or upload, and face videos recorded in face training.</li>
          <li>Voice recordings, including those from the voice training guide.</li>
          <li>
            Derived data computed from them: face embeddings, expression types, and voice measurements such as pitch,
            loudness and a voice fingerprint (embedding).
          </li>
          <li>The personalised videos generated for you, and a record of template purchases.</li>
        </ul>
      </section>
      <section>
        <h2>Who can see it</h2>
        <p>
          Everything above is private to your account. Media files are served only to their owner, through signed-in
          requests that check ownership; links for casting to a TV or downloading are short-lived. Nothing is shared
          publicly, sold, or used to train models for anyone else.
        </p>
      </section>
      <section>
        <h2>How it is used</h2>
        <p>
          Face and voice data are used for one thing: to make the videos you ask for. Processing happens on the
          FamilyStar server; no third-party AI service receives your media.
        </p>
      </section>
      <section>
        <h2>Deleting it</h2>
        <ul>
          <li>Deleting a face image or voice recording deletes its file and the data derived from it.</li>
          <li>Deleting a person deletes all their face images, face videos, voice recordings and files.</li>
          <li>Deleting a video deletes its output file.</li>
          <li>Deleting your account deletes everything of yours, files included. Nothing is left on disk.</li>
        </ul>
        <p>
          People are managed on the People page; to delete your whole account,{' '}
          <Link href="/contact" className="font-medium text-primary underline-offset-4 hover:underline">contact us</Link>.
        </p>
      </section>
      <section>
        <h2>Cookies</h2>
        <p>We use one session cookie to keep you signed in. There are no advertising or tracking cookies.</p>
      </section>
    </InfoPageLayout>
  );
}
