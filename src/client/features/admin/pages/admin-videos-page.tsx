// Advanced Video Management (spec 02 §2): the template list and the upload form, as two tabs.
import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { Button } from '@client/components/ui/button';
import { Card, CardContent } from '@client/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@client/components/ui/tabs';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { TemplateList } from '../components/template-manager';
import { TemplateUploadForm } from '../components/template-upload-form';

export default function AdminVideosPage() {
  useDocumentTitle('Advanced Video Management');
  const [tab, setTab] = useState('list');
  return (
    <div className="container-page py-8 md:py-10">
      <Button asChild variant="ghost" className="-ml-3">
        <Link href="/admin">
          <ArrowLeft aria-hidden="true" />
          Back to Admin Dashboard
        </Link>
      </Button>
      <h1 className="mt-4 text-3xl font-bold tracking-tight">Advanced Video Management</h1>
      <Tabs value={tab} onValueChange={setTab} className="mt-8">
        <TabsList>
          <TabsTrigger value="list">Video Templates</TabsTrigger>
          <TabsTrigger value="upload">Upload New Video</TabsTrigger>
        </TabsList>
        <TabsContent value="list" className="mt-6">
          <TemplateList />
        </TabsContent>
        <TabsContent value="upload" className="mt-6">
          <Card className="max-w-3xl">
            <CardContent className="pt-6">
              <TemplateUploadForm onUploaded={() => setTab('list')} />
            </CardContent>
          </Card>
        </TabsContent>
      </Tabs>
    </div>
  );
}
