import { ArrowLeft, Heart, ShieldCheck, Sparkles, Tv } from 'lucide-react';
import { Link, useSearch } from 'wouter';
import { Card, CardContent, CardDescription, CardHeader } from '@client/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@client/components/ui/tabs';
import { Wordmark } from '@client/components/wordmark';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { LoginForm } from '../components/login-form';
import { RegisterForm } from '../components/register-form';

const PROMISES = [
  { icon: Sparkles, text: 'Your face and voice in the videos your children already love.' },
  { icon: ShieldCheck, text: 'Private by default: faces and voices are only ever shown to you.' },
  { icon: Tv, text: 'Watch together on the big screen with one tap.' },
];

export default function AuthPage() {
  useDocumentTitle('Sign in');
  // Links such as the landing page's "Sign Up" open the Register tab with ?tab=register.
  const initialTab = new URLSearchParams(useSearch()).get('tab') === 'register' ? 'register' : 'login';

  return (
    <div className="grid min-h-screen lg:grid-cols-[1.1fr_1fr]">
      <aside className="relative hidden overflow-hidden bg-primary p-12 text-primary-foreground lg:flex lg:flex-col lg:justify-between">
        <div aria-hidden="true" className="absolute -top-24 -right-24 size-96 rounded-full bg-sunshine/30 blur-3xl" />
        <div aria-hidden="true" className="absolute -bottom-32 -left-16 size-96 rounded-full bg-white/10 blur-3xl" />
        <Wordmark href="/landing" tone="inverse" className="relative text-2xl" />
        <div className="relative max-w-md">
          <p className="text-sm font-semibold tracking-wide text-white/80 uppercase">Educational Videos Starring You</p>
          <h2 className="mt-3 text-4xl leading-tight font-bold">Be the star of your child&apos;s favourite lessons.</h2>
          <ul className="mt-8 grid gap-4">
            {PROMISES.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-start gap-3">
                <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-white/15">
                  <Icon className="size-4.5" aria-hidden="true" />
                </span>
                <span className="pt-1.5 text-white/90">{text}</span>
              </li>
            ))}
          </ul>
        </div>
        <p className="relative flex items-center gap-2 text-sm text-white/80">
          <Heart className="size-4 fill-current" aria-hidden="true" /> Joined by 2,000+ parents this month
        </p>
      </aside>

      <main className="flex flex-col items-center justify-center px-4 py-10 sm:px-6">
        <div className="w-full max-w-md">
          <div className="mb-6 flex items-center justify-between">
            <Link
              href="/landing"
              className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-muted-foreground transition-colors hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
            >
              <ArrowLeft className="size-4" aria-hidden="true" /> Back to Home
            </Link>
            <Wordmark href="/landing" className="text-lg lg:hidden" />
          </div>
          <Card>
            <CardHeader className="pb-4">
              <h1 className="text-2xl font-bold tracking-tight">Welcome to FamilyStar</h1>
              <CardDescription>Log in to your account or create a new one to get started.</CardDescription>
            </CardHeader>
            <CardContent>
              <Tabs defaultValue={initialTab}>
                <TabsList className="grid w-full grid-cols-2">
                  <TabsTrigger value="login">Login</TabsTrigger>
                  <TabsTrigger value="register">Register</TabsTrigger>
                </TabsList>
                <TabsContent value="login" className="mt-6">
                  <LoginForm />
                </TabsContent>
                <TabsContent value="register" className="mt-6">
                  <RegisterForm />
                </TabsContent>
              </Tabs>
            </CardContent>
          </Card>
        </div>
      </main>
    </div>
  );
}
