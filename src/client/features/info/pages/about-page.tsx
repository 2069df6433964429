// What FamilyStar is, for a visitor deciding and for a parent already in (issue 20: the avatar menu's About).
// Kept to words and links: the bench measures this page on a slow phone (bench/landing.bench.ts).
import { Link } from 'wouter';
import { planById } from '@shared/plans';
import { useCurrentUser } from '@client/features/auth/api/use-current-user';
import { InfoPageLayout } from '../components/info-page-layout';

const FREE = planById('free');
const count = (n: number, one: string, many: string) => `${n === 1 ? 'one' : n} ${n === 1 ? one : many}`;

export default function AboutPage() {
  const { user } = useCurrentUser();
  return (
    <InfoPageLayout title="About FamilyStar" lead="Educational videos starring the people your children love.">
      <section>
        <h2>What it is</h2>
        <p>
          Children learn best from the faces and voices they know. FamilyStar takes short lessons (counting, letters,
          colours, songs and stories) and makes them star you, a grandparent or a favourite aunt, with their face
          and their voice.
        </p>
      </section>
      <section>
        <h2>How it works</h2>
        <ul>
          <li>Add a person and confirm they agreed to take part.</li>
          <li>Give us a few photos or short clips of their face, and a few recordings of their voice.</li>
          <li>Pick a video from the library. We make your version, ready to watch together or cast to the TV.</li>
        </ul>
      </section>
      <section>
        <h2>Private by design</h2>
        <p>
          Faces and voices are only ever shown to you. You can delete a photo, a recording, a person or your whole
          account at any time, and withdrawing a person&apos;s consent deletes everything made of them. The{' '}
          <Link href="/privacy" className="font-medium text-primary underline-offset-4 hover:underline">
            privacy notice
          </Link>{' '}
          says exactly what we keep and for how long.
        </p>
      </section>
      <section>
        <h2>{user ? 'Ready for the next one?' : 'Try it'}</h2>
        <p>
          {user ? (
            <>
              Pick a lesson in the{' '}
              <Link href="/library" className="font-medium text-primary underline-offset-4 hover:underline">
                library
              </Link>{' '}
              or{' '}
              <Link href="/process/new" className="font-medium text-primary underline-offset-4 hover:underline">
                create a video
              </Link>
              .
            </>
          ) : (
            <>
              The Free plan has room for {count(FREE.maxPeople, 'person', 'people')} and{' '}
              {FREE.videosPerMonth === null ? 'unlimited videos' : count(FREE.videosPerMonth, 'video', 'videos')} a month.{' '}
              <Link href="/auth?tab=register" className="font-medium text-primary underline-offset-4 hover:underline">
                Create your account
              </Link>{' '}
              or{' '}
              <Link href="/landing" className="font-medium text-primary underline-offset-4 hover:underline">
                see what&apos;s inside
              </Link>
              .
            </>
          )}{' '}
          Questions are welcome on the{' '}
          <Link href="/contact" className="font-medium text-primary underline-offset-4 hover:underline">
            contact page
          </Link>
          .
        </p>
      </section>
    </InfoPageLayout>
  );
}
