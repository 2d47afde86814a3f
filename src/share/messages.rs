//! The settings link's message catalog ([`super`]), in English, Vietnamese, Indonesian,
//! Russian and Polish, built as the page's others (`crate::i18n::catalog!`).

crate::i18n::catalog!(
    "One message of the settings link's catalog.",
    Sm {
        Heading,
        Intro,
        Copy,
        UrlLabel,
        Copied,
        CopyByHand,
        LeftOut { keys },
    }
);

fn en(msg: Sm) -> &'static str {
    use Sm::*;
    match msg {
        Heading => "Share these settings",
        Intro => "The page's address holds its settings (never your text), so a link opens the page as you see it. Back and Forward step through the settings you made.",
        Copy => "Copy link",
        UrlLabel => "Link to these settings",
        Copied => "Link copied. It holds the settings only, not the text.",
        CopyByHand => "The browser did not allow copying: the link is selected in the box, copy it from there.",
        LeftOut => "Some settings in the link were not understood and were left as they were: {keys}.",
    }
}

#[cfg(linked_languages)]
fn vi(msg: Sm) -> &'static str {
    use Sm::*;
    match msg {
        Heading => "Chia sẻ các thiết lập này",
        Intro => "Địa chỉ trang lưu mọi thiết lập của trang (không bao giờ lưu văn bản của bạn), nên liên kết sẽ mở trang đúng như bạn đang thấy. Nút Quay lại và Tiến của trình duyệt lần lượt đưa bạn qua các thiết lập đã đặt.",
        Copy => "Sao chép liên kết",
        UrlLabel => "Liên kết tới các thiết lập này",
        Copied => "Đã sao chép liên kết. Nó chỉ chứa các thiết lập, không chứa văn bản.",
        CopyByHand => "Trình duyệt không cho phép sao chép: liên kết đã được chọn trong ô, hãy sao chép từ đó.",
        LeftOut => "Một số thiết lập trong liên kết không đọc được nên được giữ nguyên: {keys}.",
    }
}

#[cfg(linked_languages)]
fn id(msg: Sm) -> &'static str {
    use Sm::*;
    match msg {
        Heading => "Bagikan pengaturan ini",
        Intro => "Alamat halaman menyimpan semua pengaturan halaman (tidak pernah teks Anda), jadi sebuah tautan membuka halaman persis seperti yang Anda lihat. Tombol Kembali dan Maju berpindah di antara pengaturan yang Anda buat.",
        Copy => "Salin tautan",
        UrlLabel => "Tautan ke pengaturan ini",
        Copied => "Tautan disalin. Isinya hanya pengaturan, bukan teks.",
        CopyByHand => "Peramban tidak mengizinkan penyalinan: tautan sudah dipilih di kotak, salin dari sana.",
        LeftOut => "Beberapa pengaturan dalam tautan tidak dapat dibaca dan dibiarkan seperti semula: {keys}.",
    }
}

#[cfg(linked_languages)]
fn ru(msg: Sm) -> &'static str {
    use Sm::*;
    match msg {
        Heading => "Поделиться этими настройками",
        Intro => "В адресе страницы хранятся её настройки (но никогда не ваш текст), поэтому ссылка открывает страницу такой, какой вы её видите. Кнопки «Назад» и «Вперёд» переходят между вашими настройками.",
        Copy => "Скопировать ссылку",
        UrlLabel => "Ссылка на эти настройки",
        Copied => "Ссылка скопирована. В ней только настройки, без текста.",
        CopyByHand => "Браузер не разрешил копирование: ссылка выделена в поле, скопируйте её оттуда.",
        LeftOut => "Некоторые настройки из ссылки не удалось распознать, они оставлены как были: {keys}.",
    }
}

#[cfg(linked_languages)]
fn pl(msg: Sm) -> &'static str {
    use Sm::*;
    match msg {
        Heading => "Udostępnij te ustawienia",
        Intro => "Adres strony zawiera jej ustawienia (nigdy Twojego tekstu), więc link otwiera stronę dokładnie tak, jak ją widzisz. Przyciski Wstecz i Dalej przechodzą między kolejnymi ustawieniami.",
        Copy => "Kopiuj link",
        UrlLabel => "Link do tych ustawień",
        Copied => "Link skopiowany. Zawiera tylko ustawienia, bez tekstu.",
        CopyByHand => "Przeglądarka nie pozwoliła skopiować: link jest zaznaczony w polu, skopiuj go stamtąd.",
        LeftOut => "Niektórych ustawień z linku nie udało się odczytać, więc pozostały bez zmian: {keys}.",
    }
}
