// The route table (spec 01 §2 and the decisions page). Every page is its own chunk (pages.ts); the landing
// page's is fetched alongside the shell on /landing (vite.config.ts, decision 005), and a guarded page's
// chunk loads while the user is checked.
import type { ReactNode } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { AdminRoute, ProtectedRoute, PublicOnlyRoute } from './guards';
import { pages } from './pages';

const {
  landing: LandingPage,
  auth: AuthPage,
  home: HomePage,
  profile: ProfilePage,
  library: LibraryPage,
  simplePreview: SimplePreviewPage,
  process: ProcessPage,
  player: PlayerPage,
  saved: SavedVideosPage,
  uploadTest: UploadTestPage,
  voiceOnly: VoiceOnlyPage,
  demo: DemoPage,
  people: PeoplePage,
  checkout: CheckoutPage,
  voiceTraining: VoiceTrainingPage,
  faceTraining: FaceTrainingPage,
  admin: AdminPage,
  adminVideos: AdminVideosPage,
  about: AboutPage,
  terms: TermsPage,
  privacy: PrivacyPage,
  contact: ContactPage,
  notFound: NotFoundPage,
} = pages;

/** A person id in the address must be a number; anything else goes home (spec 01 §5). */
function withPersonId(raw: string | undefined, render: (personId: number) => ReactNode): ReactNode {
  return raw !== undefined && /^\d+$/.test(raw) ? render(Number(raw)) : <Redirect to="/" replace />;
}

export function AppRouter() {
  return (
    <Switch>
      {/* Public */}
      <Route path="/landing">
        <PublicOnlyRoute>
          <LandingPage />
        </PublicOnlyRoute>
      </Route>
      <Route path="/auth">
        <PublicOnlyRoute>
          <AuthPage />
        </PublicOnlyRoute>
      </Route>
      <Route path="/simple-preview" component={SimplePreviewPage} />
      <Route path="/about" component={AboutPage} />
      <Route path="/terms" component={TermsPage} />
      <Route path="/privacy" component={PrivacyPage} />
      <Route path="/contact" component={ContactPage} />

      {/* Old addresses still linked from elsewhere (the payment return address among them) */}
      <Route path="/video-library">
        <Redirect to="/library" replace />
      </Route>
      <Route path="/video-processor/:templateId">
        {({ templateId }) => <Redirect to={`/process/${encodeURIComponent(templateId)}`} replace />}
      </Route>

      {/* Signed in */}
      <Route path="/">
        <ProtectedRoute page={HomePage}>
          <HomePage />
        </ProtectedRoute>
      </Route>
      <Route path="/profile">
        <ProtectedRoute page={ProfilePage}>
          <ProfilePage />
        </ProtectedRoute>
      </Route>
      <Route path="/library">
        <ProtectedRoute page={LibraryPage}>
          <LibraryPage />
        </ProtectedRoute>
      </Route>
      <Route path="/process/:templateId">
        {({ templateId }) => (
          <ProtectedRoute page={ProcessPage}>
            <ProcessPage templateId={templateId} />
          </ProtectedRoute>
        )}
      </Route>
      <Route path="/player/:videoId">
        {({ videoId }) => (
          <ProtectedRoute page={PlayerPage}>
            <PlayerPage source="processedVideo" id={videoId} />
          </ProtectedRoute>
        )}
      </Route>
      <Route path="/preview/:templateId">
        {({ templateId }) => (
          <ProtectedRoute page={PlayerPage}>
            <PlayerPage source="template" id={templateId} />
          </ProtectedRoute>
        )}
      </Route>
      <Route path="/saved">
        <ProtectedRoute page={SavedVideosPage}>
          <SavedVideosPage />
        </ProtectedRoute>
      </Route>
      <Route path="/people">
        <ProtectedRoute page={PeoplePage}>
          <PeoplePage />
        </ProtectedRoute>
      </Route>
      <Route path="/checkout/:templateId">
        {({ templateId }) => (
          <ProtectedRoute page={CheckoutPage}>
            <CheckoutPage templateId={templateId} />
          </ProtectedRoute>
        )}
      </Route>
      <Route path="/upload-test">
        <ProtectedRoute page={UploadTestPage}>
          <UploadTestPage />
        </ProtectedRoute>
      </Route>
      <Route path="/voice-only">
        <ProtectedRoute page={VoiceOnlyPage}>
          <VoiceOnlyPage />
        </ProtectedRoute>
      </Route>
      <Route path="/voice-training/:personId?">
        {({ personId }) => (
          <ProtectedRoute page={VoiceTrainingPage}>
            {personId === undefined ? (
              <VoiceTrainingPage />
            ) : (
              withPersonId(personId, (id) => <VoiceTrainingPage personId={id} />)
            )}
          </ProtectedRoute>
        )}
      </Route>
      <Route path="/face-training/:personId">
        {({ personId }) => (
          <ProtectedRoute page={FaceTrainingPage}>{withPersonId(personId, (id) => <FaceTrainingPage personId={id} />)}</ProtectedRoute>
        )}
      </Route>
      <Route path="/demo">
        <ProtectedRoute page={DemoPage}>
          <DemoPage />
        </ProtectedRoute>
      </Route>

      {/* Admin only */}
      <Route path="/admin">
        <AdminRoute page={AdminPage}>
          <AdminPage />
        </AdminRoute>
      </Route>
      <Route path="/admin/videos">
        <AdminRoute page={AdminVideosPage}>
          <AdminVideosPage />
        </AdminRoute>
      </Route>

      <Route component={NotFoundPage} />
    </Switch>
  );
}
