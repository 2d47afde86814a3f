//! The embedding model's messages (the retriever select, the model's status line), in
//! English, Vietnamese, Indonesian, Russian and Polish, built as the other catalogs
//! (`crate::i18n::catalog!`). Counts stand after a colon, so that no noun takes a count's form.
//! Sizes are in KiB (1,024 bytes), written "KB" as the page's other download lines do.

crate::i18n::catalog!(
    "One message of the embedding model's catalog.",
    Em {
        RetrieverLabel,
        RetrieverBm25,
        RetrieverDense,
        RetrieverHybrid,
        RetrieverNote,
        ModelLabel,
        ModelOption { model, size },
        Off,
        Loading { received },
        LoadingOf { received, total },
        Ready { model },
        Embedding { done, queued },
        Failed { message },
        Stop,
    }
);

fn en(msg: Em) -> &'static str {
    use Em::*;
    match msg {
        RetrieverLabel => "Retriever",
        RetrieverBm25 => "BM25 (words)",
        RetrieverDense => "Dense (embeddings)",
        RetrieverHybrid => "Hybrid (BM25 + dense, RRF)",
        RetrieverNote => "Dense retrieval ranks the chunks by the cosine of their embeddings with the question's, computed on this device by the model below (its weights in int8, downloaded once when you pick it; no text leaves the page). Hybrid fuses the BM25 and dense rankings by reciprocal rank fusion: each chunk scores Σ 1 / (60 + rank). With either, the table shows all three retrievers for every strategy.",
        ModelLabel => "Embedding model for dense retrieval",
        ModelOption => "{model}: model files {size} KB",
        Off => "The embedding model is not loaded.",
        Loading => "Downloading the embedding model: {received} KB received.",
        LoadingOf => "Downloading the embedding model: {received} of {total} KB.",
        Ready => "{model} is ready on this device.",
        Embedding => "Embedding chunks and questions: {done} done, {queued} waiting.",
        Failed => "The embedding model could not run: {message}",
        Stop => "Stop the embedding model",
    }
}

#[cfg(linked_languages)]
fn vi(msg: Em) -> &'static str {
    use Em::*;
    match msg {
        RetrieverLabel => "Bộ truy xuất",
        RetrieverBm25 => "BM25 (theo từ)",
        RetrieverDense => "Dày đặc (embedding)",
        RetrieverHybrid => "Kết hợp (BM25 + dày đặc, RRF)",
        RetrieverNote => "Truy xuất dày đặc xếp hạng các đoạn theo cosin giữa embedding của chúng và của câu hỏi, được tính ngay trên thiết bị này bằng mô hình bên dưới (trọng số int8, chỉ tải một lần khi bạn chọn; không văn bản nào rời khỏi trang). Kết hợp trộn hai bảng xếp hạng BM25 và dày đặc bằng reciprocal rank fusion: mỗi đoạn được Σ 1 / (60 + hạng). Khi chọn một trong hai, bảng hiện cả ba bộ truy xuất cho mỗi chiến lược.",
        ModelLabel => "Mô hình embedding cho truy xuất dày đặc",
        ModelOption => "{model}: tệp mô hình {size} KB",
        Off => "Mô hình embedding chưa được tải.",
        Loading => "Đang tải mô hình embedding: đã nhận {received} KB.",
        LoadingOf => "Đang tải mô hình embedding: {received}/{total} KB.",
        Ready => "Mô hình {model} đã sẵn sàng trên thiết bị này.",
        Embedding => "Đang tạo embedding cho đoạn và câu hỏi: xong {done}, còn chờ {queued}.",
        Failed => "Không chạy được mô hình embedding: {message}",
        Stop => "Dừng mô hình embedding",
    }
}

#[cfg(linked_languages)]
fn id(msg: Em) -> &'static str {
    use Em::*;
    match msg {
        RetrieverLabel => "Metode pencarian",
        RetrieverBm25 => "BM25 (kata)",
        RetrieverDense => "Padat (embedding)",
        RetrieverHybrid => "Hibrida (BM25 + padat, RRF)",
        RetrieverNote => "Retrieval padat mengurutkan potongan menurut kosinus antara embedding-nya dan embedding pertanyaan, dihitung di perangkat ini oleh model di bawah (bobotnya int8, diunduh sekali saat Anda memilihnya; tidak ada teks yang keluar dari halaman). Hibrida menggabungkan urutan BM25 dan padat dengan reciprocal rank fusion: setiap potongan bernilai Σ 1 / (60 + peringkat). Dengan salah satunya, tabel menampilkan ketiga retriever untuk setiap strategi.",
        ModelLabel => "Model embedding untuk retrieval padat",
        ModelOption => "{model}: berkas model {size} KB",
        Off => "Model embedding belum dimuat.",
        Loading => "Mengunduh model embedding: {received} KB diterima.",
        LoadingOf => "Mengunduh model embedding: {received} dari {total} KB.",
        Ready => "Model {model} siap di perangkat ini.",
        Embedding => "Membuat embedding potongan dan pertanyaan: {done} selesai, {queued} menunggu.",
        Failed => "Model embedding tidak dapat berjalan: {message}",
        Stop => "Hentikan model embedding",
    }
}

#[cfg(linked_languages)]
fn ru(msg: Em) -> &'static str {
    use Em::*;
    match msg {
        RetrieverLabel => "Поиск",
        RetrieverBm25 => "BM25 (по словам)",
        RetrieverDense => "Плотный (эмбеддинги)",
        RetrieverHybrid => "Гибридный (BM25 + плотный, RRF)",
        RetrieverNote => "Плотный поиск ранжирует фрагменты по косинусу между их эмбеддингами и эмбеддингом вопроса; их считает на этом устройстве модель, выбранная ниже (веса в int8, загружаются один раз, когда вы её выбираете; текст не покидает страницу). Гибридный объединяет ранжирования BM25 и плотного поиска через reciprocal rank fusion: оценка фрагмента — Σ 1 / (60 + ранг). При любом из них таблица показывает все три способа для каждой стратегии.",
        ModelLabel => "Модель эмбеддингов для плотного поиска",
        ModelOption => "{model}: файлы модели {size} КБ",
        Off => "Модель эмбеддингов не загружена.",
        Loading => "Загрузка модели эмбеддингов: получено {received} КБ.",
        LoadingOf => "Загрузка модели эмбеддингов: {received} из {total} КБ.",
        Ready => "Модель {model} готова на этом устройстве.",
        Embedding => "Эмбеддинги фрагментов и вопросов: готово — {done}, в очереди — {queued}.",
        Failed => "Модель эмбеддингов не смогла работать: {message}",
        Stop => "Остановить модель эмбеддингов",
    }
}

#[cfg(linked_languages)]
fn pl(msg: Em) -> &'static str {
    use Em::*;
    match msg {
        RetrieverLabel => "Wyszukiwanie",
        RetrieverBm25 => "BM25 (słowa)",
        RetrieverDense => "Gęste (embeddingi)",
        RetrieverHybrid => "Hybrydowe (BM25 + gęste, RRF)",
        RetrieverNote => "Wyszukiwanie gęste porządkuje chunki według cosinusa między ich embeddingami a embeddingiem pytania, liczonymi na tym urządzeniu modelem wybranym poniżej (wagi w int8, pobierane raz, gdy go wybierzesz; żaden tekst nie opuszcza strony). Hybrydowe łączy rankingi BM25 i wyszukiwania gęstego metodą reciprocal rank fusion: każdy chunk dostaje Σ 1 / (60 + pozycja). Przy każdym z nich tabela pokazuje wszystkie trzy sposoby dla każdej strategii.",
        ModelLabel => "Model embeddingów do wyszukiwania gęstego",
        ModelOption => "{model}: pliki modelu {size} KB",
        Off => "Model embeddingów nie jest wczytany.",
        Loading => "Pobieranie modelu embeddingów: odebrano {received} KB.",
        LoadingOf => "Pobieranie modelu embeddingów: {received} z {total} KB.",
        Ready => "Model {model} jest gotowy na tym urządzeniu.",
        Embedding => "Embeddingi chunków i pytań: gotowe: {done}, w kolejce: {queued}.",
        Failed => "Model embeddingów nie mógł działać: {message}",
        Stop => "Zatrzymaj model embeddingów",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    #[test]
    fn every_language_fills_every_parameter() {
        for &key in Em::ALL {
            for lang in Lang::ALL {
                let t = template(lang, key).1;
                for p in key.params() {
                    assert!(
                        t.contains(&format!("{{{p}}}")),
                        "{lang:?} {key:?} lacks {{{p}}}"
                    );
                }
                assert!(!t.is_empty(), "{lang:?} {key:?}");
            }
        }
    }
}
