// Admin dashboard (spec 02 §2): User Management, Video Templates, Subscriptions, Analytics.
import { Settings2 } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@client/components/ui/tabs';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { AnalyticsTab } from '../components/analytics-tab';
import { SubscriptionsTab } from '../components/subscriptions-tab';
import { TemplateList } from '../components/template-manager';
import { TemplateUploadForm } from '../components/template-upload-form';
import { UserManagement } from '../components/user-management';

export default function AdminPage() {
  useDocumentTitle('Admin Dashboard');
  return (
    <div className="container-page py-8 md:py-10">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">Admin Dashboard</h1>
          <p className="mt-1 text-muted-foreground">Users, templates, plans and how the app is used.</p>
        </div>
        <Button asChild variant="outline">
          <Link href="/admin/videos">
            <Settings2 aria-hidden="true" />
            Advanced Video Management
          </Link>
        </Button>
      </div>
      <Tabs defaultValue="users" className="mt-8">
        {/* Two rows of two on a phone: in one row scrolled sideways, 'Subsc…' was cut and Analytics hidden. */}
        <TabsList className="grid h-auto w-full grid-cols-2 sm:inline-flex sm:h-11 sm:w-auto">
          <TabsTrigger value="users">User Management</TabsTrigger>
          <TabsTrigger value="templates">Video Templates</TabsTrigger>
          <TabsTrigger value="subscriptions">Subscriptions</TabsTrigger>
          <TabsTrigger value="analytics">Analytics</TabsTrigger>
        </TabsList>
        <TabsContent value="users" className="mt-6">
          <UserManagement />
        </TabsContent>
        <TabsContent value="templates" className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
          <section aria-labelledby="admin-templates-heading" className="grid content-start gap-4">
            <h2 id="admin-templates-heading" className="text-lg font-semibold">
              Templates
            </h2>
            <TemplateList />
          </section>
          <Card className="content-start">
            <CardHeader>
              <CardTitle>Upload New Template</CardTitle>
              <CardDescription>A video of up to 100MB; its duration is measured on the server.</CardDescription>
            </CardHeader>
            <CardContent>
              <TemplateUploadForm />
            </CardContent>
          </Card>
        </TabsContent>
        <TabsContent value="subscriptions" className="mt-6">
          <SubscriptionsTab />
        </TabsContent>
        <TabsContent value="analytics" className="mt-6">
          <AnalyticsTab />
        </TabsContent>
      </Tabs>
    </div>
  );
}
