// The route table (spec 01 §2 and the decisions page). Only the landing page is in the first bundle;
// every other page is its own chunk, loaded on first visit (lazy pages export default).
import { lazy, type ReactNode } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { LandingPage } from '@client/features/landing/pages/landing-page';
import { AdminRoute, ProtectedRoute, PublicOnlyRoute } from './guards';

const AuthPage = lazy(() => import('@client/features/auth/pages/auth-page'));
const HomePage = lazy(() => import('@client/features/home/pages/home-page'));
const ProfilePage = lazy(() => import('@client/features/users/pages/profile-page'));
const LibraryPage = lazy(() => import('@client/features/templates/pages/library-page'));
const SimplePreviewPage = lazy(() => import('@client/features/templates/pages/simple-preview-page'));
const ProcessPage = lazy(() => import('@client/features/videos/pages/process-page'));
const PlayerPage = lazy(() => import('@client/features/videos/pages/player-page'));
const SavedVideosPage = lazy(() => import('@client/features/videos/pages/saved-videos-page'));
const UploadTestPage = lazy(() => import('@client/features/videos/pages/upload-test-page'));
const VoiceOnlyPage = lazy(() => import('@client/features/videos/pages/voice-only-page'));
const DemoPage = lazy(() => import('@client/features/templates/pages/demo-page'));
const PeoplePage = lazy(() => import('@client/features/people/pages/people-page'));
const CheckoutPage = lazy(() => import('@client/features/payments/pages/checkout-page'));
const VoiceTrainingPage = lazy(() => import('@client/features/voices/pages/voice-training-page'));
const FaceTrainingPage = lazy(() => import('@client/features/faces/pages/face-training-page'));
const AdminPage = lazy(() => import('@client/features/admin/pages/admin-page'));
const AdminVideosPage = lazy(() => import('@client/features/admin/pages/admin-videos-page'));
const TermsPage = lazy(() => import('@client/features/info/pages/terms-page'));
const PrivacyPage = lazy(() => import('@client/features/info/pages/privacy-page'));
const ContactPage = lazy(() => import('@client/features/info/pages/contact-page'));
const NotFoundPage = lazy(() => import('./not-found-page'));

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
        <ProtectedRoute>
          <HomePage />
        </ProtectedRoute>
      </Route>
      <Route path="/profile">
        <ProtectedRoute>
          <ProfilePage />
        </ProtectedRoute>
      </Route>
      <Route path="/library">
        <ProtectedRoute>
          <LibraryPage />
        </ProtectedRoute>
      </Route>
      <Route path="/process/:templateId">
        {({ templateId }) => (
          <ProtectedRoute>
            <ProcessPage templateId={templateId} />
          </ProtectedRoute>
        )}
      </Route>
      <Route path="/player/:videoId">
        {({ videoId }) => (
          <ProtectedRoute>
            <PlayerPage source="processedVideo" id={videoId} />
          </ProtectedRoute>
        )}
      </Route>
      <Route path="/preview/:templateId">
        {({ templateId }) => (
          <ProtectedRoute>
            <PlayerPage source="template" id={templateId} />
          </ProtectedRoute>
        )}
      </Route>
      <Route path="/saved">
        <ProtectedRoute>
          <SavedVideosPage />
        </ProtectedRoute>
      </Route>
      <Route path="/people">
        <ProtectedRoute>
          <PeoplePage />
        </ProtectedRoute>
      </Route>
      <Route path="/checkout/:templateId">
        {({ templateId }) => (
          <ProtectedRoute>
            <CheckoutPage templateId={templateId} />
          </ProtectedRoute>
        )}
      </Route>
      <Route path="/upload-test">
        <ProtectedRoute>
          <UploadTestPage />
        </ProtectedRoute>
      </Route>
      <Route path="/voice-only">
        <ProtectedRoute>
          <VoiceOnlyPage />
        </ProtectedRoute>
      </Route>
      <Route path="/voice-training/:personId?">
        {({ personId }) => (
          <ProtectedRoute>
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
          <ProtectedRoute>{withPersonId(personId, (id) => <FaceTrainingPage personId={id} />)}</ProtectedRoute>
        )}
      </Route>
      <Route path="/demo">
        <ProtectedRoute>
          <DemoPage />
        </ProtectedRoute>
      </Route>

      {/* Admin only */}
      <Route path="/admin">
        <AdminRoute>
          <AdminPage />
        </AdminRoute>
      </Route>
      <Route path="/admin/videos">
        <AdminRoute>
          <AdminVideosPage />
        </AdminRoute>
      </Route>

      <Route component={NotFoundPage} />
    </Switch>
  );
}
